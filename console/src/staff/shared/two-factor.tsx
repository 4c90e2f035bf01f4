import { useState } from 'react';
import { api, call, get } from '../../api/client';
import { Button, Card, CopyButton, ErrorMessage, formValues, Input, Notice, useAction } from '../../ui/kit';

export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <Notice tone="warning">
      <p>
        <b>Recovery codes</b> — shown once. Keep them somewhere safe: each one logs you in once without the app.
      </p>
      <p className="secret">{codes.join('  ')}</p>
      <CopyButton text={codes.join('\n')} label="Copy the codes" />
    </Notice>
  );
}

/** Staff 2FA enrolment: password → QR code and secret → first code → recovery codes. */
export function TwoFactorSetup({ onDone }: { onDone: () => void }) {
  const [codes, setCodes] = useState<string[]>();
  const generate = useAction((password: string) => get(() => api.POST('/api/backoffice/auth/2fa/generate', { body: { password } })));
  const enable = useAction((code: string) => get(() => api.POST('/api/backoffice/auth/2fa/enable', { body: { code } })), { onSuccess: (r) => setCodes(r.recovery_codes) });
  if (codes) {
    return (
      <Card>
        <RecoveryCodes codes={codes} />
        <Button onClick={onDone}>Continue</Button>
      </Card>
    );
  }
  return (
    <Card>
      {!generate.data ? (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            generate.mutate(formValues(e.currentTarget).password ?? '');
          }}
        >
          <Input label="Your password" name="password" type="password" autoComplete="current-password" required />
          <ErrorMessage error={generate.error} />
          <Button type="submit" busy={generate.isPending}>
            Show the QR code
          </Button>
        </form>
      ) : (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            enable.mutate(formValues(e.currentTarget).code ?? '');
          }}
        >
          <p>Scan the code with your authenticator app, or type the secret.</p>
          <img className="qr" src={generate.data.qr_code} alt="QR code of the authenticator secret" />
          <p className="secret">{generate.data.secret}</p>
          <Input label="6-digit code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required />
          <ErrorMessage error={enable.error} />
          <Button type="submit" busy={enable.isPending}>
            Turn on two-factor authentication
          </Button>
        </form>
      )}
    </Card>
  );
}

export function TwoFactorManage() {
  const [codes, setCodes] = useState<string[]>();
  const disable = useAction((body: { code: string; password: string }) => call(() => api.POST('/api/backoffice/auth/2fa/disable', { body })));
  const regenerate = useAction((body: { code: string; password: string }) => get(() => api.POST('/api/backoffice/auth/2fa/recovery/regenerate', { body })), { onSuccess: (r) => setCodes(r.recovery_codes) });
  const read = (form: HTMLFormElement) => {
    const v = formValues(form);
    return { code: v.code ?? '', password: v.password ?? '' };
  };
  return (
    <Card title="Two-factor authentication">
      {codes ? <RecoveryCodes codes={codes} /> : null}
      {disable.isSuccess ? <Notice tone="success">Two-factor authentication is off.</Notice> : null}
      <form className="form" onSubmit={(e) => e.preventDefault()}>
        <Input label="Your password" name="password" type="password" autoComplete="current-password" required />
        <Input label="Current 6-digit code" name="code" inputMode="numeric" autoComplete="one-time-code" required />
        <ErrorMessage error={disable.error ?? regenerate.error} />
        <div className="row">
          <Button kind="secondary" busy={regenerate.isPending} onClick={(e) => regenerate.mutate(read(e.currentTarget.form!))}>
            New recovery codes
          </Button>
          <Button kind="danger" busy={disable.isPending} onClick={(e) => disable.mutate(read(e.currentTarget.form!))}>
            Turn off
          </Button>
        </div>
      </form>
    </Card>
  );
}
