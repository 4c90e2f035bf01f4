import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="security-groups">Coming soon</Page>;
}
