import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="promotions">Coming soon</Page>;
}
