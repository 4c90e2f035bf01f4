import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="account">Coming soon</Page>;
}
