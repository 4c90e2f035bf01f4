import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="load-balancers">Coming soon</Page>;
}
