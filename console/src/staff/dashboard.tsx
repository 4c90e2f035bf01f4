import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="dashboard">Coming soon</Page>;
}
