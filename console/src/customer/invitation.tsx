import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { api, get } from '../api/client';
import { keys } from '../api/keys';
import { Button, ErrorMessage, Loaded, Page, useAction, when } from '../ui/kit';
import { useMe } from './shared/me';

const ROLE_WORDS: Record<string, string> = {
  admin: 'an admin (everything but ownership)',
  billing: 'billing (top-ups, invoices, payment methods)',
  technical: 'technical (servers, networks, storage)',
  read_only: 'read-only',
  owner: 'the owner',
};

/** The page an invitation mail links to: what it offers, and Accept for the signed-in invitee. */
export function AcceptInvitation() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const me = useMe();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const preview = useQuery({ queryKey: keys.invitation(token), queryFn: () => get(() => api.POST('/api/invitations/preview', { body: { token } })), retry: false });
  const accept = useAction(() => get(() => api.POST('/api/invitations/accept', { body: { token } })), { invalidate: [keys.accounts] });
  const switchTo = useAction((account_id: number) => get(() => api.POST('/api/accounts/switch', { body: { account_id } })), {
    onSuccess: () => {
      qc.clear();
      navigate('/');
    },
  });
  return (
    <Page title="Invitation">
      <Loaded query={preview}>
        {(p) => (
          <>
            <p>
              You are invited to the account of <strong>{p.account_name}</strong> as {ROLE_WORDS[p.role] ?? p.role}. The invitation is for {p.email} and works until {when(p.expires_at)}.
            </p>
            {me.data && me.data.email.toLowerCase() !== p.email.toLowerCase() ? (
              <p role="alert">You are signed in as {me.data.email}: sign out and sign in (or sign up) as {p.email} to accept.</p>
            ) : null}
            {accept.isSuccess ? (
              <>
                <p role="status">You joined the account of {accept.data.name}.</p>
                <Button busy={switchTo.isPending} onClick={() => switchTo.mutate(accept.data.account_id)}>
                  Open that account
                </Button>
              </>
            ) : (
              <Button busy={accept.isPending} onClick={() => accept.mutate(undefined)}>
                Accept the invitation
              </Button>
            )}
            <ErrorMessage error={accept.error ?? switchTo.error} />
          </>
        )}
      </Loaded>
    </Page>
  );
}

/** The page the ownership transfer mail links to: the owner confirms. */
export function ConfirmOwnership() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useAction(() => get(() => api.POST('/api/accounts/ownership-transfer/confirm', { body: { token } })), { invalidate: [keys.members, keys.accounts] });
  return (
    <Page title="Hand over the account">
      <p>Confirm to make the member you chose the owner of this account. You stay in it as an admin.</p>
      {confirm.isSuccess ? <p role="status">Done: the account has a new owner.</p> : <Button busy={confirm.isPending} onClick={() => confirm.mutate(undefined)}>Confirm the transfer</Button>}
      <ErrorMessage error={confirm.error} />
    </Page>
  );
}
