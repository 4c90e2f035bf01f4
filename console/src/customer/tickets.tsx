import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="tickets">Coming soon</Page>;
}
