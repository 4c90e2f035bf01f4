import { Page } from '../ui/kit';

export default function News({ notifications }: { notifications?: boolean }) {
  return <Page title={notifications ? 'Notifications' : 'News'}>Coming soon</Page>;
}
