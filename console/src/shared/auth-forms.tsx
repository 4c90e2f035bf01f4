import type { ReactNode } from 'react';
import { Button, ErrorMessage, formValues, Input } from '../ui/kit';

/**
 * The login forms both consoles share: e-mail and password, then the second factor. Each surface
 * calls its own API; these forms only collect the values and show the error.
 */
export function PasswordLoginForm({ onSubmit, error, busy }: { onSubmit: (v: { email: string; password: string }) => void; error: unknown; busy: boolean }) {
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        const v = formValues(e.currentTarget);
        onSubmit({ email: v.email ?? '', password: v.password ?? '' });
      }}
    >
      <Input label="E-mail" name="email" type="email" autoComplete="username" required autoFocus />
      <Input label="Password" name="password" type="password" autoComplete="current-password" required />
      <ErrorMessage error={error} />
      <Button type="submit" busy={busy}>
        Log in
      </Button>
    </form>
  );
}

export type SecondFactorStep = 'code' | 'recovery';

/**
 * The second login step: a code from the authenticator app, or a recovery code. The form is keyed
 * by the step, so each step mounts a new field and autoFocus puts the cursor in it: after the
 * password step, and after switching between code and recovery code.
 */
export function SecondFactorForm({
  step,
  onStep,
  onSubmit,
  error,
  busy,
  extra,
}: {
  step: SecondFactorStep;
  onStep: (s: SecondFactorStep) => void;
  onSubmit: (v: { code: string; step: SecondFactorStep }) => void;
  error: unknown;
  busy: boolean;
  extra?: ReactNode;
}) {
  return (
    <form
      key={step}
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ code: formValues(e.currentTarget).code ?? '', step });
      }}
    >
      {step === 'code' ? (
        <Input label="6-digit code from your authenticator app" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required autoFocus />
      ) : (
        <Input label="Recovery code" name="code" autoComplete="off" placeholder="a1b2c-3d4e5" required autoFocus />
      )}
      <ErrorMessage error={error} />
      <div className="row">
        <Button type="submit" busy={busy}>
          Verify
        </Button>
        <Button kind="link" onClick={() => onStep(step === 'code' ? 'recovery' : 'code')}>
          {step === 'code' ? 'Use a recovery code' : 'Use the authenticator code'}
        </Button>
      </div>
      {extra}
    </form>
  );
}
