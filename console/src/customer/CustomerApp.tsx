import { lazy, Suspense, useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { api, ApiError, call, get, onApiError } from '../api/client';
import { Button, Loading } from '../ui/kit';
import { Shell, type NavItem } from '../ui/shell';
import { ConfirmEmailChange, ForgotPassword, Login, Register, ResetPassword, VerifyEmail } from './auth';
import { Home } from './home';
import { TopUp, Billing } from './billing';
import { VmCreate, VmDetail, VmList } from './vms';
import { useMe } from './shared/me';
import { useAccounts, useMemberCan, type CustomerOperation } from './shared/accounts';
import { keys } from '../api/keys';

// Screens past the first ones are their own chunks.
const Networks = lazy(() => import('./networks'));
const Storage = lazy(() => import('./storage'));
const SecurityGroups = lazy(() => import('./security-groups'));
const LoadBalancers = lazy(() => import('./load-balancers'));
const Tickets = lazy(() => import('./tickets'));
const News = lazy(() => import('./news'));
const Account = lazy(() => import('./account'));
const SshKeys = lazy(() => import('./ssh-keys'));
const Alerts = lazy(() => import('./alerts'));
const Team = lazy(() => import('./team'));
const Invitations = lazy(() => import('./invitation').then((m) => ({ default: m.AcceptInvitation })));
const Ownership = lazy(() => import('./invitation').then((m) => ({ default: m.ConfirmOwnership })));

/** The navigation, each screen shown when the role in the current account may read it. */
const NAV: (NavItem & { needs?: CustomerOperation })[] = [
  { to: '/', label: 'Home', end: true },
  { to: '/vms', label: 'Virtual machines', group: 'Resources', needs: 'GET /api/compute/vm' },
  { to: '/networks', label: 'Private networks', group: 'Resources', needs: 'GET /api/network/private' },
  { to: '/security-groups', label: 'Security groups', group: 'Resources', needs: 'GET /api/network/security-group/' },
  { to: '/load-balancers', label: 'Load balancers', group: 'Resources', needs: 'GET /api/network/load-balancer/' },
  { to: '/storage', label: 'Object storage', group: 'Resources', needs: 'GET /api/storage/object' },
  { to: '/ssh-keys', label: 'SSH keys', group: 'Resources', needs: 'GET /api/ssh-keys' },
  { to: '/alerts', label: 'Alerts', group: 'Resources', needs: 'GET /api/compute/alerts/policies' },
  { to: '/billing', label: 'Billing', group: 'Account', end: true, needs: 'GET /api/billing/deposit' },
  { to: '/tickets', label: 'Support tickets', group: 'Account', needs: 'GET /api/ticket/' },
  { to: '/team', label: 'Team', group: 'Account', needs: 'GET /api/members' },
  { to: '/news', label: 'News', group: 'Account' },
  { to: '/account', label: 'Profile & security', group: 'Account' },
];

/**
 * An account in the switcher, by who owns it now: "My account" only while the person owns it (after
 * they hand their own account over it is named by its new owner, as any other team's).
 */
function accountLabel(a: { own: boolean; role: string; name: string; email: string; owner: { name: string; email: string } | null }): string {
  if (a.role === 'owner') return a.own ? 'My account' : `${a.name || a.email}, handed over to you`;
  const owner = a.owner ? a.owner.name || a.owner.email : a.name || a.email;
  return `${owner}’s account`;
}

/** Which account this session acts on, and the others the person belongs to. */
function AccountSwitcher() {
  const accounts = useAccounts();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  if (!accounts.data || accounts.data.length < 2) return null;
  const current = accounts.data.find((a) => a.current);
  return (
    <label className="switcher">
      <span className="sr-only">Account</span>
      <select
        aria-label="Account"
        value={current?.account_id ?? ''}
        disabled={busy}
        onChange={async (e) => {
          setBusy(true);
          try {
            await call(() => api.POST('/api/accounts/switch', { body: { account_id: Number(e.currentTarget.value) } }));
            qc.clear();
            navigate('/');
          } finally {
            setBusy(false);
          }
        }}
      >
        {accounts.data.map((a) => (
          <option key={a.account_id} value={a.account_id}>
            {accountLabel(a)} ({a.role.replace('_', '-')})
          </option>
        ))}
      </select>
    </label>
  );
}

function useMaintenance(): [boolean, () => void] {
  const [on, setOn] = useState(false);
  useEffect(() => onApiError((e) => e.code === 'MAINTENANCE' && !location.pathname.startsWith('/backoffice') && setOn(true)), []);
  return [on, () => setOn(false)];
}

export function CustomerApp() {
  const [maintenance, clear] = useMaintenance();
  const qc = useQueryClient();
  if (maintenance) {
    return (
      <main className="maintenance">
        <h1>We are doing maintenance</h1>
        <p>The console is back shortly. Your resources keep running.</p>
        <Button
          onClick={() => {
            clear();
            void qc.invalidateQueries();
          }}
        >
          Try again
        </Button>
      </main>
    );
  }
  return (
    <Routes>
      <Route path="/login" element={<Login />} />
      <Route path="/register" element={<Register />} />
      <Route path="/auth/verify-email" element={<VerifyEmail />} />
      <Route path="/forgot-password" element={<ForgotPassword />} />
      <Route path="/auth/reset-password" element={<ResetPassword />} />
      <Route path="/*" element={<Authenticated />} />
    </Routes>
  );
}

function useImpersonated(enabled = true) {
  return useQuery({
    enabled,
    queryKey: keys.sessions,
    queryFn: () => get(() => api.GET('/api/auth/sessions')),
    select: (sessions) => sessions.find((s) => s.current)?.impersonated ?? false,
  });
}

/**
 * Signed in, but the person belongs to no account any more (their own was closed, or they left it
 * after handing it over, and they are in no team): the page says so, and they can log out.
 */
function NoAccount({ closed }: { closed: boolean }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return (
    <main className="auth">
      <h1>{closed ? 'Your account is closed' : 'You no longer belong to an account'}</h1>
      <p role="status">You are signed in, but there is no account for you to work in any more. When a team invites you, sign in again to work in it.</p>
      <Button
        kind="secondary"
        onClick={async () => {
          await api.POST('/api/auth/logout').catch(() => undefined);
          qc.clear();
          navigate('/login');
        }}
      >
        Log out
      </Button>
    </main>
  );
}

function Authenticated() {
  // Ask first whether this browser holds a session at all, so a logged-out visit goes to the login
  // page without authenticated calls that would answer 401 (and fill the browser's console).
  const hint = useQuery({ queryKey: keys.sessionHint, queryFn: () => get(() => api.GET('/api/lookup/session-hint')), gcTime: 0, refetchOnMount: 'always' });
  const me = useMe(false, hint.data?.customer === true);
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const impersonated = useImpersonated(!!me.data);
  const [leaving, setLeaving] = useState(false);
  // asked once signed in, as the profile is: a logged-out visit makes no authenticated call
  const can = useMemberCan(!!me.data);
  // only an answer of this visit counts: a cached one may predate the login
  if ((hint.isFetchedAfterMount && hint.data?.customer === false) || (me.error instanceof ApiError && me.error.status === 401)) {
    return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }
  if (hint.error) return <main className="auth"><p role="alert">{(hint.error as Error).message}</p></main>;
  if (me.error instanceof ApiError && (me.error.code === 'ACCOUNT_CLOSED' || me.error.code === 'NOT_A_MEMBER')) return <NoAccount closed={me.error.code === 'ACCOUNT_CLOSED'} />;
  if (me.error) return <main className="auth"><p role="alert">{(me.error as Error).message}</p></main>;
  if (!me.data) return <Loading />;
  const logout = async () => {
    setLeaving(true);
    await api.POST('/api/auth/logout').catch(() => undefined);
    qc.clear();
    navigate('/login');
  };
  return (
    <Shell
      brand="Cloud Console"
      nav={NAV.filter((n) => !n.needs || can(n.needs))}
      banner={
        impersonated.data ? (
          <div className="banner-impersonation" role="alert">
            Staff impersonation: you are acting as {me.data.full_name} ({me.data.email}). Every action is audited.
          </div>
        ) : null
      }
      top={
        <>
          <Link to="/notifications" className="bell">
            Notifications{' '}
            {me.data.unread_count > 0 ? (
              <span className="count">
                {me.data.unread_count}
                <span className="sr-only"> unread</span>
              </span>
            ) : null}
          </Link>
          <AccountSwitcher />
          <span className="who">{me.data.email}</span>
          <Button kind="secondary" busy={leaving} onClick={logout}>
            Log out
          </Button>
        </>
      }
    >
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route index element={<Home />} />
          <Route path="billing" element={<Billing />} />
          <Route path="billing/topup" element={<TopUp />} />
          <Route path="vms" element={<VmList />} />
          <Route path="vms/new" element={<VmCreate />} />
          <Route path="vms/:id" element={<VmDetail />} />
          <Route path="networks/*" element={<Networks />} />
          <Route path="storage/*" element={<Storage />} />
          <Route path="ssh-keys" element={<SshKeys />} />
          <Route path="alerts" element={<Alerts />} />
          <Route path="security-groups/*" element={<SecurityGroups />} />
          <Route path="load-balancers/*" element={<LoadBalancers />} />
          <Route path="tickets/*" element={<Tickets />} />
          <Route path="news/*" element={<News />} />
          <Route path="notifications" element={<News notifications />} />
          <Route path="account/change-email/confirm" element={<ConfirmEmailChange />} />
          <Route path="account/*" element={<Account />} />
          <Route path="team" element={<Team />} />
          <Route path="invitation" element={<Invitations />} />
          <Route path="ownership" element={<Ownership />} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Suspense>
    </Shell>
  );
}

export function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </section>
  );
}
