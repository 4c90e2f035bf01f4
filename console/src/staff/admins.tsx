import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="admins">Coming soon</Page>;
}
