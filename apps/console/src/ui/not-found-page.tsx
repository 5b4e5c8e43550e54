import { Link } from 'wouter';
import { Page } from './page';

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p>
        Nothing lives at this address. <Link href="/">Go to the home page</Link>.
      </p>
    </Page>
  );
}
