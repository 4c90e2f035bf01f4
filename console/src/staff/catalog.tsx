import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="catalog">Coming soon</Page>;
}
