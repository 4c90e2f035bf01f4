import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, call, get } from '../api/client';
import { Button, Card, Checkbox, ConfirmButton, CopyButton, ErrorMessage, formValues, Input, Loaded, Notice, Page, Select, Status, Table, useAction, when } from '../ui/kit';
import { useMe } from './shared/me';
import { useCurrentAccount } from './shared/accounts';
import { CUSTOMER_OPERATION_PERMISSIONS } from '../api/permissions';
import { ApiTokens } from './shared/api-tokens';
import { keys } from '../api/keys';
import { deviceName } from '../ui/device';

function Profile() {
  const profile = useQuery({ queryKey: keys.profile, queryFn: () => get(() => api.GET('/api/customer/profile')) });
  const countries = useQuery({ queryKey: keys.countries, queryFn: () => get(() => api.GET('/api/lookup/country')), staleTime: Infinity });
  const save = useAction(
    (v: Record<string, string>) =>
      get(() =>
        api.PATCH('/api/customer/profile', {
          body: {
            firstname: v.firstname ?? '',
            lastname: v.lastname ?? '',
            personal_profile: { phone: v.phone ?? null, address: v.address ?? null, country_id: v.country_id ?? null, tax_number: v.tax_number ?? null },
          },
        }),
      ),
    { invalidate: [keys.profile, keys.me] },
  );
  return (
    <Card title="Profile">
      <Loaded query={profile}>
        {(p) => (
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate(formValues(e.currentTarget));
            }}
          >
            <Input label="First name" name="firstname" defaultValue={p.firstname} required />
            <Input label="Last name" name="lastname" defaultValue={p.lastname} required />
            <Input label="Phone" name="phone" type="tel" defaultValue={p.personal_profile.phone ?? ''} />
            <Input label="Address" name="address" defaultValue={p.personal_profile.address ?? ''} />
            <Select label="Country" name="country_id" defaultValue={p.personal_profile.country_id ?? ''} placeholder="Choose" options={(countries.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))} />
            <Input label="Tax number" name="tax_number" defaultValue={p.personal_profile.tax_number ?? ''} />
            <ErrorMessage error={save.error} />
            {save.isSuccess ? <p role="status">Saved.</p> : null}
            <Button type="submit" busy={save.isPending}>
              Save profile
            </Button>
          </form>
        )}
      </Loaded>
    </Card>
  );
}

function NotificationSettings() {
  const me = useMe();
  const save = useAction((body: { allow_marketing_email: boolean; allow_billing_reminder: boolean }) => get(() => api.PATCH('/api/customer/profile/notification-setting', { body })), { invalidate: [keys.me] });
  const s = me.data?.notification_setting;
  return (
    <Card title="E-mail notifications">
      {s ? (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            save.mutate({ allow_marketing_email: v.allow_marketing_email === 'on', allow_billing_reminder: v.allow_billing_reminder === 'on' });
          }}
        >
          <Checkbox label="Billing reminders" name="allow_billing_reminder" defaultChecked={s.allow_billing_reminder} />
          <Checkbox label="News and offers" name="allow_marketing_email" defaultChecked={s.allow_marketing_email} />
          <ErrorMessage error={save.error} />
          {save.isSuccess ? <p role="status">Saved.</p> : null}
          <Button type="submit" busy={save.isPending}>
            Save
          </Button>
        </form>
      ) : null}
    </Card>
  );
}

function Sessions() {
  const navigate = useNavigate();
  const sessions = useQuery({ queryKey: keys.sessions, queryFn: () => get(() => api.GET('/api/auth/sessions')) });
  const revoke = useAction((sid: string) => call(() => api.DELETE('/api/auth/sessions/{sid}', { params: { path: { sid } } })), {
    invalidate: [keys.sessions],
    onSuccess: (_r, sid) => {
      if (sid === 'all' || sessions.data?.find((s) => s.id === sid)?.current) navigate('/login');
    },
  });
  return (
    <Card title="Devices">
      <ErrorMessage error={revoke.error} />
      <Loaded query={sessions}>
        {(rows) => (
          <Table caption="Devices" head={['Device', 'IP', 'Opened', 'Last access', '']} empty={rows.length === 0}>
            {rows.map((s) => (
              <tr key={s.id}>
                <td>
                  <span title={s.user_agent ?? undefined}>{deviceName(s.user_agent)}</span> {s.current ? <Status value="This device" /> : null} {s.impersonated ? <Status value="Support staff" /> : null}
                </td>
                <td>{s.ip ?? '—'}</td>
                <td>{when(s.created_at)}</td>
                <td>{when(s.last_access_at)}</td>
                <td>
                  <ConfirmButton label="Log out" confirm="Log this device out?" busy={revoke.isPending && revoke.variables === s.id} onConfirm={() => revoke.mutate(s.id)} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
    </Card>
  );
}

function Password() {
  const change = useAction((body: { current_password: string; new_password: string }) => call(() => api.POST('/api/auth/password/change', { body })));
  return (
    <Card title="Password">
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          change.mutate({ current_password: v.current_password ?? '', new_password: v.new_password ?? '' });
        }}
      >
        <Input label="Current password" name="current_password" type="password" autoComplete="current-password" required />
        <Input label="New password" name="new_password" type="password" autoComplete="new-password" required />
        <ErrorMessage error={change.error} />
        {change.isSuccess ? <p role="status">Password changed.</p> : null}
        <Button type="submit" busy={change.isPending}>
          Change password
        </Button>
      </form>
    </Card>
  );
}

/** 2FA changes need sudo mode: the password (and the current code when 2FA is on) gives a 5-minute token. */
function TwoFactor() {
  const me = useMe();
  const on = me.data?.is_2fa_active ?? false;
  const [token, setToken] = useState<string>();
  const [codes, setCodes] = useState<string[]>();
  const header = { params: { header: { 'x-access-token': token ?? '' } } };
  const sudo = useAction((body: { password: string; code?: string }) => get(() => api.POST('/api/auth/profile/sudo', { body })), { onSuccess: (r) => setToken(r.token) });
  const generate = useAction(() => get(() => api.POST('/api/auth/profile/2fa/generate-code', header)));
  const enable = useAction((code: string) => get(() => api.POST('/api/auth/profile/2fa/enable', { ...header, body: { code } })), { invalidate: [keys.me], onSuccess: (r) => setCodes(r.recovery_codes) });
  const disable = useAction((code: string) => call(() => api.POST('/api/auth/profile/2fa/disable', { ...header, body: { code } })), { invalidate: [keys.me], onSuccess: () => setToken(undefined) });
  const recovery = useQuery({ queryKey: keys.recoveryCodes(token), queryFn: () => get(() => api.GET('/api/auth/profile/2fa/recovery', header)), enabled: on && !!token });
  const regenerate = useAction(() => get(() => api.POST('/api/auth/profile/2fa/recovery/regenerate', header)), { onSuccess: (r) => setCodes(r.recovery_codes) });
  return (
    <Card title="Two-factor authentication">
      <p>
        Status: <Status value={on ? 'Active' : 'Disabled'} />
      </p>
      {codes ? (
        <Notice tone="warning">
          <p>
            <b>Recovery codes</b>, shown once: each logs you in once without the app.
          </p>
          <ul className="secret" aria-label="Recovery codes" style={{ listStyle: 'none', display: 'flex', flexWrap: 'wrap', gap: '4px 16px' }}>
            {codes.map((c) => (
              <li key={c} style={{ whiteSpace: 'nowrap' }}>
                {c}
              </li>
            ))}
          </ul>
          <CopyButton text={codes.join('\n')} label="Copy the codes" />{' '}
          <a download="recovery-codes.txt" href={`data:text/plain;charset=utf-8,${encodeURIComponent(`Recovery codes for ${window.location.host}\nEach logs you in once without the authenticator app.\n\n${codes.join('\n')}\n`)}`}>
            Download as a text file
          </a>
        </Notice>
      ) : null}
      {!token ? (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            sudo.mutate({ password: v.password ?? '', ...(v.code ? { code: v.code } : {}) });
          }}
        >
          <p className="muted">Confirm it is you to change two-factor settings.</p>
          <Input label="Password" name="password" type="password" autoComplete="current-password" required />
          {on ? <Input label="Current 6-digit code" name="code" inputMode="numeric" autoComplete="one-time-code" required /> : null}
          <ErrorMessage error={sudo.error} />
          <Button type="submit" busy={sudo.isPending}>
            Continue
          </Button>
        </form>
      ) : on ? (
        <div className="stack">
          {recovery.data ? (
            <p>
              {recovery.data.remaining} recovery codes left ({recovery.data.codes.filter((c) => !c.used).map((c) => `${c.hint}…`).join(', ')}).
            </p>
          ) : null}
          <ErrorMessage error={regenerate.error ?? disable.error} />
          <Button kind="secondary" busy={regenerate.isPending} onClick={() => regenerate.mutate(undefined)}>
            New recovery codes
          </Button>
          <form
            className="inline"
            onSubmit={(e) => {
              e.preventDefault();
              disable.mutate(formValues(e.currentTarget).code ?? '');
            }}
          >
            <Input label="Code to turn it off" name="code" inputMode="numeric" autoComplete="one-time-code" required />
            <Button type="submit" kind="danger" busy={disable.isPending}>
              Turn off
            </Button>
          </form>
        </div>
      ) : generate.data ? (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            enable.mutate(formValues(e.currentTarget).code ?? '');
          }}
        >
          <p>Scan the QR code with your authenticator app, or type the secret.</p>
          <img className="qr" src={generate.data.qr_code} alt="QR code of the authenticator secret" />
          <p className="secret">{generate.data.secret}</p>
          <Input label="6-digit code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required />
          <ErrorMessage error={enable.error} />
          <Button type="submit" busy={enable.isPending}>
            Turn on
          </Button>
        </form>
      ) : (
        <>
          <ErrorMessage error={generate.error} />
          <Button busy={generate.isPending} onClick={() => generate.mutate(undefined)}>
            Set up two-factor authentication
          </Button>
        </>
      )}
    </Card>
  );
}

function ChangeEmail() {
  const [step, setStep] = useState<'start' | 'code' | 'new' | 'sent'>('start');
  const [token, setToken] = useState('');
  const request = useAction(() => call(() => api.POST('/api/auth/profile/change-email/request')), { onSuccess: () => setStep('code') });
  const verify = useAction((code: string) => get(() => api.POST('/api/auth/profile/change-email/verify-old', { body: { code } })), {
    onSuccess: (r) => {
      setToken(r.token);
      setStep('new');
    },
  });
  const send = useAction((new_email: string) => call(() => api.POST('/api/auth/profile/change-email/send-new', { body: { token, new_email } })), { onSuccess: () => setStep('sent') });
  return (
    <Card title="E-mail address">
      {step === 'start' ? (
        <>
          <ErrorMessage error={request.error} />
          <Button kind="secondary" busy={request.isPending} onClick={() => request.mutate(undefined)}>
            Change my e-mail address
          </Button>
        </>
      ) : null}
      {step === 'code' ? (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            verify.mutate(formValues(e.currentTarget).code ?? '');
          }}
        >
          <Input label="Code we sent to your current address" name="code" inputMode="numeric" autoComplete="one-time-code" required />
          <Button type="submit" busy={verify.isPending}>
            Verify
          </Button>
          <ErrorMessage error={verify.error} />
        </form>
      ) : null}
      {step === 'new' ? (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate(formValues(e.currentTarget).new_email ?? '');
          }}
        >
          <Input label="New e-mail address" name="new_email" type="email" required />
          <Button type="submit" busy={send.isPending}>
            Send the confirmation link
          </Button>
          <ErrorMessage error={send.error} />
        </form>
      ) : null}
      {step === 'sent' ? <Notice tone="success">Open the link we sent to the new address, in this browser, to finish.</Notice> : null}
    </Card>
  );
}

function Referral() {
  const referral = useQuery({ queryKey: keys.referral, queryFn: () => get(() => api.GET('/api/customer/referral')) });
  return (
    <Card title="Invite friends">
      <Loaded query={referral}>
        {(r) => (
          <p className="row">
            Your referral code <span className="secret">{r.code}</span> <CopyButton text={`${location.origin}/register?ref=${r.code}`} label="Copy the invitation link" /> {r.referred_count} joined.
          </p>
        )}
      </Loaded>
    </Card>
  );
}

/**
 * The owner closes the account acted on: first what stands in the way (resources, unsettled money),
 * then, once nothing does, the password (and the 2FA code) and the account's address typed again,
 * and a last confirmation naming what ends.
 */
function CloseAccount() {
  const current = useCurrentAccount();
  const allowed = current?.permissions.includes(CUSTOMER_OPERATION_PERMISSIONS['POST /api/members/account-closure']) ?? false;
  const on = useMe().data?.is_2fa_active ?? false;
  const preview = useQuery({ queryKey: keys.accountClosure, queryFn: () => get(() => api.GET('/api/members/account-closure')), enabled: allowed });
  const [form, setForm] = useState<HTMLFormElement | null>(null);
  const close = useAction(async () => {
    const v = formValues(form!);
    const sudo = await get(() => api.POST('/api/auth/profile/sudo', { body: { password: v.password ?? '', ...(v.code ? { code: v.code } : {}) } }));
    return get(() => api.POST('/api/members/account-closure', { params: { header: { 'x-access-token': sudo.token } }, body: { confirm_email: v.confirm_email ?? '' } }));
  });
  if (!allowed || !current) return null;
  if (close.isSuccess) {
    return (
      <Card title="Close this account">
        <p role="status">The account is closed. You were signed out of it; sign in again to work in the other accounts you belong to.</p>
      </Card>
    );
  }
  return (
    <Card title="Close this account">
      <Loaded query={preview}>
        {(p) =>
          p.can_close ? (
            <form
              ref={setForm}
              className="form"
              onSubmit={(e) => e.preventDefault()}
            >
              <p className="muted">
                Closing is for good: every member loses access, every session and API token of this account ends. Credit left on the wallet is not paid out: ask support first if you want it back.
              </p>
              <Input label="Password" name="password" type="password" autoComplete="current-password" required />
              {on ? <Input label="Code from your authenticator app" name="code" inputMode="numeric" autoComplete="one-time-code" required /> : null}
              <Input label="Type the account's e-mail address to confirm" name="confirm_email" type="email" hint={current.email} required />
              <ErrorMessage error={close.error} />
              <ConfirmButton
                label="Close the account"
                confirm={`Close the account of ${current.name || current.email} for good? Every member loses access to it at once.`}
                busy={close.isPending}
                onConfirm={() => {
                  if (form?.reportValidity()) close.mutate(undefined);
                }}
              />
            </form>
          ) : (
            <>
              <p>Before the account can be closed:</p>
              <ul>
                {p.blockers.map((b) => (
                  <li key={b.kind}>{b.message}</li>
                ))}
              </ul>
            </>
          )
        }
      </Loaded>
    </Card>
  );
}

export default function Account() {
  return (
    <Page title="Profile and security">
      <Profile />
      <TwoFactor />
      <Password />
      <ChangeEmail />
      <Sessions />
      <ApiTokens />
      <NotificationSettings />
      <Referral />
      <CloseAccount />
    </Page>
  );
}
