import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="networks">Coming soon</Page>;
}
