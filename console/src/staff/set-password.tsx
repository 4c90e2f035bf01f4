import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, call, get } from '../api/client';
import { keys } from '../api/keys';
import { Button, Card, ErrorMessage, formValues, Input, Notice, Page, useAction } from '../ui/kit';

/** Where the link mailed to a new staff member (or after a reset) lands: the staff member chooses the password. */
export default function SetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const rules = useQuery({ queryKey: keys.passwordRules, queryFn: () => get(() => api.GET('/api/lookup/password-rules')) });
  const set = useAction((new_password: string) => call(() => api.POST('/api/backoffice/auth/set-password', { body: { token, new_password } })));
  return (
    <main className="auth">
      <Card>
        <Page title="Choose your backoffice password">
          {set.isSuccess ? (
            <Notice tone="success">
              Password set. <Link to="/backoffice/login">Log in</Link> with it.
            </Notice>
          ) : (
            <form
              className="form"
              onSubmit={(e) => {
                e.preventDefault();
                set.mutate(formValues(e.currentTarget).new_password ?? '');
              }}
            >
              {!token ? <Notice tone="warning">This link has no token. Open the link from the e-mail again, or copy it whole into the address bar.</Notice> : null}
              <Input label="New password" name="new_password" type="password" autoComplete="new-password" required autoFocus hint={rules.data ? `The password needs ${rules.data.description}.` : undefined} />
              <ErrorMessage error={set.error} />
              <Button type="submit" busy={set.isPending} disabled={!token}>
                Set the password
              </Button>
            </form>
          )}
        </Page>
      </Card>
    </main>
  );
}
