import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, get } from '../../api/client';
import { keys } from '../../api/keys';
import { Button, Card, ErrorMessage, formValues, Input, Notice, Page, useAction } from '../../ui/kit';
import { staffKey } from '../access';

/**
 * The staff member's own password change. `first`: the password was generated (first login, or a
 * reset): a page of its own, shown before anything else of the backoffice.
 */
export function ChangePassword({ first, onDone }: { first?: boolean; onDone?: () => void }) {
  const qc = useQueryClient();
  const rules = useQuery({ queryKey: keys.passwordRules, queryFn: () => get(() => api.GET('/api/lookup/password-rules')) });
  const change = useAction((body: { current_password: string; new_password: string }) => call(() => api.POST('/api/backoffice/auth/change-password', { body })), {
    onSuccess: () => {
      onDone?.();
      void qc.invalidateQueries({ queryKey: staffKey });
    },
  });
  const form = (
    <Card title={first ? undefined : 'Change password'}>
      {first ? <Notice tone="warning">Your password was generated: choose your own before you continue.</Notice> : null}
      {change.isSuccess ? <Notice tone="success">Password changed.</Notice> : null}
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          change.mutate({ current_password: v.current_password ?? '', new_password: v.new_password ?? '' });
          e.currentTarget.reset();
        }}
      >
        <Input label="Current password" name="current_password" type="password" autoComplete="current-password" required autoFocus={first} />
        <Input label="New password" name="new_password" type="password" autoComplete="new-password" required hint={rules.data ? `The password needs ${rules.data.description}.` : undefined} />
        <ErrorMessage error={change.error} />
        <Button type="submit" busy={change.isPending}>
          Change password
        </Button>
      </form>
    </Card>
  );
  return first ? (
    <main className="auth">
      <Page title="Choose a new password">{form}</Page>
    </main>
  ) : (
    form
  );
}
