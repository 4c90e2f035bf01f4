import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="content">Coming soon</Page>;
}
