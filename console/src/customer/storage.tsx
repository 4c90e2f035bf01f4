import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="storage">Coming soon</Page>;
}
