import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="settings">Coming soon</Page>;
}
