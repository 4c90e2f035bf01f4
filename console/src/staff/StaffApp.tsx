import { Page } from '../ui/kit';

export default function StaffApp() {
  return <Page title="Backoffice">Coming soon</Page>;
}
