import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="invoices">Coming soon</Page>;
}
