import { lazy, Suspense, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { api, ApiError, get } from '../api/client';
import { keys } from '../api/keys';
import { Button, Card, ErrorMessage, Loading, Notice, Page, useAction } from '../ui/kit';
import { PasswordLoginForm, SecondFactorForm, type SecondFactorStep } from '../shared/auth-forms';
import { Shell, type NavItem } from '../ui/shell';
import { staffKey, useCan, useStaff, type Operation } from './access';
import { ChangePassword } from './shared/change-password';
import { TwoFactorSetup } from './shared/two-factor';

const Dashboard = lazy(() => import('./dashboard'));
const Customers = lazy(() => import('./customers'));
const Vms = lazy(() => import('./vms'));
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
const SetPassword = lazy(() => import('./set-password'));

/** Each screen with the operation whose permission opens it. */
const SCREENS: (NavItem & { op: Operation })[] = [
  { to: '/backoffice', label: 'Dashboard', end: true, op: 'GET /api/backoffice/dashboard/customer/insight' },
  { to: '/backoffice/customers', label: 'Customers', op: 'GET /api/backoffice/customer' },
  { to: '/backoffice/vms', label: 'Virtual machines', op: 'GET /api/backoffice/compute/vm' },
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
      <Route
        path="set-password"
        element={
          <Suspense fallback={<Loading />}>
            <SetPassword />
          </Suspense>
        }
      />
      <Route path="*" element={<StaffShell />} />
    </Routes>
  );
}

function StaffShell() {
  // Ask first whether this browser holds a staff session at all, so a logged-out visit goes to the
  // login page without a call that would answer 401 (and fill the browser's console).
  const hint = useQuery({ queryKey: keys.staff.sessionHint, queryFn: () => get(() => api.GET('/api/backoffice/auth/session-hint')), gcTime: 0, refetchOnMount: 'always' });
  const me = useStaff(hint.data?.staff === true);
  const can = useCan();
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  const [offer, setOffer] = useState(() => sessionStorage.getItem(OFFER_TWO_FACTOR) === '1');
  const endOffer = () => {
    sessionStorage.removeItem(OFFER_TWO_FACTOR);
    setOffer(false);
  };
  if ((hint.isFetchedAfterMount && hint.data?.staff === false) || (me.error instanceof ApiError && me.error.status === 401)) return <Navigate to={`/backoffice/login?next=${encodeURIComponent(location.pathname)}`} replace />;
  if (me.error instanceof ApiError && me.error.code === 'TWO_FACTOR_SETUP_REQUIRED') return <Enrol onDone={endOffer} />;
  if (me.error instanceof ApiError && me.error.code === 'PASSWORD_CHANGE_REQUIRED') return <ChangePassword first />;
  if (hint.error) return <ErrorMessage error={hint.error} />;
  if (me.error) return <ErrorMessage error={me.error} />;
  if (!me.data) return <Loading />;
  if (me.data.must_change_password) return <ChangePassword first />;
  if (offer && !me.data.two_factor_enabled) return <OfferTwoFactor onDone={endOffer} />;
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
          <Route path="vms/*" element={allowed(op('/backoffice/vms'), <Vms />)} />
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

/** Set at a first login: the shell offers two-factor set-up once the password is the staff member's own. */
const OFFER_TWO_FACTOR = 'staff-offer-2fa';

function StaffLogin() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [step, setStep] = useState<'password' | SecondFactorStep>('password');
  const done = async () => {
    await qc.invalidateQueries({ queryKey: staffKey });
    navigate(safeNext(new URLSearchParams(location.search).get('next')), { replace: true });
  };
  const login = useAction((body: { email: string; password: string }) => get(() => api.POST('/api/backoffice/auth/login', { body })), {
    onSuccess: (r) => {
      if (r.two_factor_required) return setStep('code');
      if (r.first_login && !r.two_factor_setup_required) sessionStorage.setItem(OFFER_TWO_FACTOR, '1');
      void done();
    },
  });
  const verify = useAction((body: { code?: string; recovery_code?: string }) => get(() => api.POST('/api/backoffice/auth/2fa/verify', { body })), { onSuccess: () => void done() });
  return (
    <main className="auth">
      <Card>
        <Page title={step === 'password' ? 'Staff log in' : 'Two-factor authentication'}>
          {step === 'password' ? (
            <PasswordLoginForm onSubmit={(v) => login.mutate(v)} error={login.error} busy={login.isPending} />
          ) : (
            <SecondFactorForm step={step} onStep={setStep} onSubmit={({ code, step: s }) => verify.mutate(s === 'code' ? { code } : { recovery_code: code })} error={verify.error} busy={verify.isPending} />
          )}
        </Page>
      </Card>
    </main>
  );
}

/** After a first login: two-factor set-up, offered and skippable (required ones go through Enrol). */
function OfferTwoFactor({ onDone }: { onDone: () => void }) {
  const qc = useQueryClient();
  return (
    <main className="auth">
      <Page title="Set up two-factor authentication">
        <p>Staff accounts can move money and see every customer. A code from an authenticator app at each login keeps the account yours even if the password leaks.</p>
        <TwoFactorSetup
          onDone={() => {
            onDone();
            void qc.invalidateQueries({ queryKey: staffKey });
          }}
        />
        <p>
          <Button kind="link" onClick={onDone}>
            Skip for now
          </Button>{' '}
          <span className="muted">You can turn it on later under My account.</span>
        </p>
      </Page>
    </main>
  );
}

function Enrol({ onDone }: { onDone: () => void }) {
  const qc = useQueryClient();
  return (
    <main className="auth">
      <Page title="Set up two-factor authentication">
        <Notice tone="warning">Two-factor authentication is required for your account before you continue.</Notice>
        <TwoFactorSetup
          onDone={() => {
            onDone();
            void qc.invalidateQueries({ queryKey: staffKey });
          }}
        />
      </Page>
    </main>
  );
}
