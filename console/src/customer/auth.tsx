import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, call, get } from '../api/client';
import { Button, Card, ErrorMessage, formValues, Input, Notice, Page, Select, useAction } from '../ui/kit';
import { keys } from '../api/keys';
import { PasswordLoginForm, SecondFactorForm, type SecondFactorStep } from '../shared/auth-forms';

function AuthFrame({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="auth">
      <Card>
        <Page title={title}>{children}</Page>
      </Card>
      {footer ? <p className="muted">{footer}</p> : null}
    </main>
  );
}

/** Only paths of this console: a `next` that names another site is ignored. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [email, setEmail] = useState('');
  const [step, setStep] = useState<'password' | SecondFactorStep>('password');
  const done = async () => {
    await qc.invalidateQueries();
    navigate(safeNext(params.get('next')), { replace: true });
  };
  const login = useAction((body: { email: string; password: string }) => get(() => api.POST('/api/auth/login', { body })), {
    onSuccess: (r, body) => {
      setEmail(body.email);
      if (r.redirect === '2FA') setStep('code');
      else void done();
    },
  });
  const verify = useAction((code: string) => get(() => api.POST('/api/auth/2fa/verify-code', { body: { email, code } })), { onSuccess: () => void done() });
  const recover = useAction((code: string) => get(() => api.POST('/api/auth/2fa/verify-recovery', { body: { email, recovery_code: code } })), { onSuccess: () => void done() });

  if (step !== 'password') {
    const action = step === 'code' ? verify : recover;
    return (
      <AuthFrame title="Two-factor authentication">
        <SecondFactorForm step={step} onStep={setStep} onSubmit={({ code }) => action.mutate(code)} error={action.error} busy={action.isPending} />
      </AuthFrame>
    );
  }
  return (
    <AuthFrame
      title="Log in"
      footer={
        <>
          New here? <Link to="/register">Create an account</Link> · <Link to="/forgot-password">Forgot your password?</Link>
        </>
      }
    >
      <PasswordLoginForm onSubmit={(v) => login.mutate(v)} error={login.error} busy={login.isPending} />
    </AuthFrame>
  );
}

export function Register() {
  const rules = useQuery({ queryKey: keys.passwordRules, queryFn: () => get(() => api.GET('/api/lookup/password-rules')) });
  const tnc = useQuery({ queryKey: keys.terms, queryFn: () => get(() => api.GET('/api/lookup/tnc')) });
  const [params] = useSearchParams();
  const [sent, setSent] = useState<string>();
  const register = useAction(
    (body: { email: string; password: string; first_name: string; last_name: string; account_type: 'P' | 'B'; referral_code?: string }) => get(() => api.POST('/api/auth/register', { body })),
    { onSuccess: (_r, body) => setSent(body.email) },
  );
  const resend = useAction((email: string) => call(() => api.POST('/api/auth/register/resend', { body: { email } })));
  if (sent) {
    return (
      <AuthFrame title="Check your e-mail" footer={<Link to="/login">Back to log in</Link>}>
        <p>
          We sent a link to <b>{sent}</b>. Open it to activate your account.
        </p>
        {resend.isSuccess ? <Notice tone="success">A new link is on its way.</Notice> : null}
        <ErrorMessage error={resend.error} />
        <Button kind="secondary" busy={resend.isPending} onClick={() => resend.mutate(sent)}>
          Send the link again
        </Button>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Create an account" footer={<>Already registered? <Link to="/login">Log in</Link></>}>
      <form
        className="form"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          register.mutate({
            email: v.email ?? '',
            password: v.password ?? '',
            first_name: v.first_name ?? '',
            last_name: v.last_name ?? '',
            account_type: v.account_type === 'B' ? 'B' : 'P',
            ...(v.referral_code ? { referral_code: v.referral_code } : {}),
          });
        }}
      >
        <Input label="First name" name="first_name" autoComplete="given-name" required />
        <Input label="Last name" name="last_name" autoComplete="family-name" required />
        <Input label="E-mail" name="email" type="email" autoComplete="email" required />
        <Input
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={rules.data?.min_length}
          hint={rules.data ? `Needs ${rules.data.description}.` : undefined}
        />
        <Select label="Account type" name="account_type" options={[{ value: 'P', label: 'Personal' }, { value: 'B', label: 'Business' }]} />
        <Input label="Referral code (optional)" name="referral_code" defaultValue={params.get('ref') ?? ''} />
        {tnc.data ? (
          <p className="muted">
            By creating an account you accept the <a href={tnc.data.link}>terms and conditions</a>.
          </p>
        ) : null}
        <ErrorMessage error={register.error} />
        <Button type="submit" busy={register.isPending}>
          Create account
        </Button>
      </form>
    </AuthFrame>
  );
}

/** Where the registration mail's link lands: one click confirms (a mail scanner's GET changes nothing). */
export function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useAction(() => call(() => api.POST('/api/auth/register/verify', { body: { token } })));
  return (
    <AuthFrame title="Confirm your e-mail address" footer={<Link to="/login">Log in</Link>}>
      {!token ? <ErrorMessage error={new Error('This link has no token. Open the link from the e-mail again.')} /> : null}
      {verify.isSuccess ? (
        <Notice tone="success">
          E-mail address confirmed: your account is active. <Link to="/login">Log in</Link>
        </Notice>
      ) : (
        <>
          <p>One click activates your account.</p>
          <ErrorMessage error={verify.error} />
          <Button busy={verify.isPending} disabled={!token} onClick={() => verify.mutate(undefined)}>
            Confirm my e-mail address
          </Button>
        </>
      )}
    </AuthFrame>
  );
}

export function ForgotPassword() {
  const forgot = useAction((email: string) => call(() => api.POST('/api/auth/password/forgot', { body: { email } })));
  return (
    <AuthFrame title="Forgot your password?" footer={<Link to="/login">Back to log in</Link>}>
      {forgot.isSuccess ? (
        <Notice tone="success">If an account has this address, a link to choose a new password is on its way.</Notice>
      ) : (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            forgot.mutate(formValues(e.currentTarget).email ?? '');
          }}
        >
          <Input label="E-mail" name="email" type="email" autoComplete="email" required />
          <ErrorMessage error={forgot.error} />
          <Button type="submit" busy={forgot.isPending}>
            Send the link
          </Button>
        </form>
      )}
    </AuthFrame>
  );
}

export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const rules = useQuery({ queryKey: keys.passwordRules, queryFn: () => get(() => api.GET('/api/lookup/password-rules')) });
  const reset = useAction((new_password: string) => call(() => api.POST('/api/auth/password/reset', { body: { token, new_password } })));
  return (
    <AuthFrame title="Choose a new password" footer={<Link to="/login">Back to log in</Link>}>
      {reset.isSuccess ? (
        <Notice tone="success">
          Your password was changed and every session was logged out. <Link to="/login">Log in</Link>
        </Notice>
      ) : (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            reset.mutate(formValues(e.currentTarget).new_password ?? '');
          }}
        >
          <Input label="New password" name="new_password" type="password" autoComplete="new-password" required hint={rules.data ? `Needs ${rules.data.description}.` : undefined} />
          <ErrorMessage error={reset.error} />
          <Button type="submit" busy={reset.isPending} disabled={!token}>
            Set the new password
          </Button>
        </form>
      )}
    </AuthFrame>
  );
}

/** Where the new address's confirmation link lands (inside the console: it needs the session). */
export function ConfirmEmailChange() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useAction(() => get(() => api.POST('/api/auth/profile/change-email/confirm-new', { body: { token } })), { invalidate: [keys.me] });
  return (
    <Page title="Confirm your new e-mail address">
      {confirm.data ? (
        <Notice tone="success">Your account's e-mail address is now {confirm.data.email}.</Notice>
      ) : (
        <Card>
          <p>Your other sessions will be logged out.</p>
          <ErrorMessage error={confirm.error} />
          <Button busy={confirm.isPending} disabled={!token} onClick={() => confirm.mutate(undefined)}>
            Confirm the new address
          </Button>
        </Card>
      )}
    </Page>
  );
}
