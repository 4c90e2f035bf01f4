import { lazy, Suspense, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { api, ApiError, call, get } from '../api/client';
import { Button, Card, ErrorMessage, formValues, Input, Loading, Notice, Page, useAction } from '../ui/kit';
import { Shell, type NavItem } from '../ui/shell';
import { staffKey, useCan, useStaff, type Operation } from './access';
import { TwoFactorSetup } from './two-factor';

const Dashboard = lazy(() => import('./dashboard'));
const Customers = lazy(() => import('./customers'));
const Invoices = lazy(() => import('./invoices'));
const Pricing = lazy(() => import('./pricing'));
const Catalog = lazy(() => import('./catalog'));
const Promotions = lazy(() => import('./promotions'));
const Settings = lazy(() => import('./settings'));
const Tickets = lazy(() => import('./tickets'));
const Content = lazy(() => import('./content'));
const Admins = lazy(() => import('./admins'));
const Audit = lazy(() => import('./audit'));
const Account = lazy(() => import('./account'));

/** Each screen with the operation whose permission opens it. */
const SCREENS: (NavItem & { op: Operation })[] = [
  { to: '/backoffice', label: 'Dashboard', end: true, op: 'GET /api/backoffice/dashboard/customer/insight' },
  { to: '/backoffice/customers', label: 'Customers', op: 'GET /api/backoffice/customer' },
  { to: '/backoffice/tickets', label: 'Tickets', op: 'GET /api/backoffice/ticket/' },
  { to: '/backoffice/invoices', label: 'Invoices', group: 'Billing', op: 'GET /api/backoffice/billing/prepaid/invoices' },
  { to: '/backoffice/pricing', label: 'Pricing', group: 'Billing', op: 'GET /api/backoffice/pricing/schedule' },
  { to: '/backoffice/promotions', label: 'Coupons & rewards', group: 'Billing', op: 'GET /api/backoffice/coupons' },
  { to: '/backoffice/catalog', label: 'Tiers & storage', group: 'Platform', op: 'GET /api/backoffice/tier/tiers' },
  { to: '/backoffice/content', label: 'Announcements', group: 'Platform', op: 'GET /api/backoffice/announcements/' },
  { to: '/backoffice/settings', label: 'Settings', group: 'Platform', op: 'GET /api/backoffice/setting' },
  { to: '/backoffice/admins', label: 'Admins & roles', group: 'Staff', op: 'GET /api/backoffice/admin' },
  { to: '/backoffice/audit', label: 'Audit log', group: 'Staff', op: 'GET /api/backoffice/audit-logs' },
];

export default function StaffApp() {
  return (
    <Routes>
      <Route path="login" element={<StaffLogin />} />
      <Route path="*" element={<StaffShell />} />
    </Routes>
  );
}

function StaffShell() {
  const me = useStaff();
  const can = useCan();
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  if (me.error instanceof ApiError && me.error.status === 401) return <Navigate to={`/backoffice/login?next=${encodeURIComponent(location.pathname)}`} replace />;
  if (me.error instanceof ApiError && me.error.code === 'TWO_FACTOR_SETUP_REQUIRED') return <Enrol />;
  if (me.error) return <ErrorMessage error={me.error} />;
  if (!me.data) return <Loading />;
  if (me.data.must_change_password) return <ChangePassword first />;
  const screens = SCREENS.filter((s) => can(s.op));
  const allowed = (op: Operation, el: React.ReactNode) => (can(op) ? el : <Forbidden />);
  const logout = async () => {
    setLeaving(true);
    await api.POST('/api/backoffice/auth/logout').catch(() => undefined);
    qc.clear();
    navigate('/backoffice/login');
  };
  const op = (to: string) => SCREENS.find((s) => s.to === to)!.op;
  return (
    <Shell
      staff
      brand="Backoffice"
      nav={[...screens, { to: '/backoffice/account', label: 'My account', group: 'Staff' }]}
      top={
        <>
          <span className="who">
            {me.data.name} · {me.data.role}
          </span>
          <Button kind="secondary" busy={leaving} onClick={logout}>
            Log out
          </Button>
        </>
      }
    >
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route index element={can(op('/backoffice')) ? <Dashboard /> : <Welcome />} />
          <Route path="customers/*" element={allowed(op('/backoffice/customers'), <Customers />)} />
          <Route path="tickets/*" element={allowed(op('/backoffice/tickets'), <Tickets />)} />
          <Route path="invoices/*" element={allowed(op('/backoffice/invoices'), <Invoices />)} />
          <Route path="pricing/*" element={allowed(op('/backoffice/pricing'), <Pricing />)} />
          <Route path="promotions/*" element={allowed(op('/backoffice/promotions'), <Promotions />)} />
          <Route path="catalog/*" element={allowed(op('/backoffice/catalog'), <Catalog />)} />
          <Route path="content/*" element={allowed(op('/backoffice/content'), <Content />)} />
          <Route path="settings/*" element={allowed(op('/backoffice/settings'), <Settings />)} />
          <Route path="admins/*" element={allowed(op('/backoffice/admins'), <Admins />)} />
          <Route path="audit/*" element={allowed(op('/backoffice/audit'), <Audit />)} />
          <Route path="account" element={<Account />} />
          <Route path="*" element={<Page title="Page not found">This page does not exist.</Page>} />
        </Routes>
      </Suspense>
    </Shell>
  );
}

function Welcome() {
  const me = useStaff().data;
  return <Page title={`Welcome, ${me?.name ?? ''}`}>Choose a screen from the menu.</Page>;
}

function Forbidden() {
  return (
    <Page title="Not permitted">
      <p>Your role does not permit this screen.</p>
    </Page>
  );
}

function safeNext(next: string | null): string {
  return next && next.startsWith('/backoffice') ? next : '/backoffice';
}

function StaffLogin() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [step, setStep] = useState<'password' | 'code' | 'recovery'>('password');
  const done = async () => {
    await qc.invalidateQueries({ queryKey: staffKey });
    navigate(safeNext(new URLSearchParams(location.search).get('next')), { replace: true });
  };
  const login = useAction((body: { email: string; password: string }) => get(() => api.POST('/api/backoffice/auth/login', { body })), {
    onSuccess: (r) => (r.two_factor_required ? setStep('code') : void done()),
  });
  const verify = useAction((body: { code?: string; recovery_code?: string }) => get(() => api.POST('/api/backoffice/auth/2fa/verify', { body })), { onSuccess: () => void done() });
  return (
    <main className="auth">
      <Card>
        <Page title={step === 'password' ? 'Staff log in' : 'Two-factor authentication'}>
          {step === 'password' ? (
            <form
              className="form"
              onSubmit={(e) => {
                e.preventDefault();
                const v = formValues(e.currentTarget);
                login.mutate({ email: v.email ?? '', password: v.password ?? '' });
              }}
            >
              <Input label="E-mail" name="email" type="email" autoComplete="username" required />
              <Input label="Password" name="password" type="password" autoComplete="current-password" required />
              <ErrorMessage error={login.error} />
              <Button type="submit" busy={login.isPending}>
                Log in
              </Button>
            </form>
          ) : (
            <form
              className="form"
              onSubmit={(e) => {
                e.preventDefault();
                const code = formValues(e.currentTarget).code ?? '';
                verify.mutate(step === 'code' ? { code } : { recovery_code: code });
              }}
            >
              {step === 'code' ? (
                <Input label="6-digit code from your authenticator app" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required autoFocus />
              ) : (
                <Input label="Recovery code" name="code" autoComplete="off" required autoFocus />
              )}
              <ErrorMessage error={verify.error} />
              <div className="row">
                <Button type="submit" busy={verify.isPending}>
                  Verify
                </Button>
                <Button kind="link" onClick={() => setStep(step === 'code' ? 'recovery' : 'code')}>
                  {step === 'code' ? 'Use a recovery code' : 'Use the authenticator code'}
                </Button>
              </div>
            </form>
          )}
        </Page>
      </Card>
    </main>
  );
}

export function ChangePassword({ first }: { first?: boolean }) {
  const qc = useQueryClient();
  const change = useAction((body: { current_password: string; new_password: string }) => call(() => api.POST('/api/backoffice/auth/change-password', { body })), {
    onSuccess: () => void qc.invalidateQueries({ queryKey: staffKey }),
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
        <Input label="Current password" name="current_password" type="password" autoComplete="current-password" required />
        <Input label="New password" name="new_password" type="password" autoComplete="new-password" required />
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

function Enrol() {
  const qc = useQueryClient();
  return (
    <main className="auth">
      <Page title="Set up two-factor authentication">
        <Notice tone="warning">Your role handles money: two-factor authentication is required before you continue.</Notice>
        <TwoFactorSetup onDone={() => void qc.invalidateQueries({ queryKey: staffKey })} />
      </Page>
    </main>
  );
}
