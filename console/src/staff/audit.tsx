import { Page } from '../ui/kit';

export default function Screen() {
  return <Page title="audit">Coming soon</Page>;
}
