import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, call, get } from '../api/client';
import { Button, Card, ErrorMessage, formValues, Input, Loaded, money, Notice, Page, Pager, Select, Status, Table, useAction, when } from '../ui/kit';
import { useMe } from './shared/me';
import { BudgetCard } from './shared/budget';
import { keys } from '../api/keys';

function usePaymentMethods() {
  return useQuery({ queryKey: keys.paymentMethods, queryFn: () => get(() => api.GET('/api/billing/payment-methods')), staleTime: 300_000 });
}

/** The payment method select's value names gateway and method: "pgone:VA_BCA". */
function MethodSelect() {
  const methods = usePaymentMethods();
  return (
    <Select
      label="Payment method"
      name="method"
      required
      options={(methods.data ?? []).map((m) => ({ value: `${m.gateway_name}:${m.method_code}`, label: `${m.name} via ${m.gateway_label}${m.fee_flat || m.fee_percent ? ` · fee ${m.fee_flat ? money(m.fee_flat) : ''}${m.fee_percent ? ` ${m.fee_percent}%` : ''}` : ''}` }))}
    />
  );
}
const splitMethod = (v: string | undefined) => {
  const [gateway_name = '', method_code = ''] = (v ?? '').split(':');
  return { gateway_name, method_code };
};

function TopUpForm() {
  const minimum = useQuery({ queryKey: keys.topUpMinimum, queryFn: () => get(() => api.GET('/api/billing/topup/minimum')) });
  const deposit = useAction(
    (body: { amount: number; gateway_name: string; method_code: string; coupon_code?: string }) =>
      get(() => api.POST('/api/billing/deposit', { body, params: { header: { 'idempotency-key': crypto.randomUUID() } } })),
    {
      // the gateway's payment page; it sends the customer back to /billing/topup
      onSuccess: (invoice) => window.location.assign(invoice.payment_url),
    },
  );
  return (
    <Card title="Top up">
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          deposit.mutate({ amount: Number(v.amount), ...splitMethod(v.method), ...(v.coupon_code ? { coupon_code: v.coupon_code } : {}) });
        }}
      >
        <Input
          label="Amount"
          name="amount"
          type="number"
          inputMode="decimal"
          min={minimum.data?.minimum_amount}
          step="0.01"
          required
          hint={minimum.data ? `At least ${money(minimum.data.minimum_amount, minimum.data.currency)}.` : undefined}
        />
        <MethodSelect />
        <Input label="Coupon code (optional)" name="coupon_code" autoComplete="off" />
        <ErrorMessage error={deposit.error} />
        <Button type="submit" busy={deposit.isPending || deposit.isSuccess}>
          Continue to payment
        </Button>
      </form>
    </Card>
  );
}

function RedeemForm() {
  const redeem = useAction((code: string) => call(() => api.POST('/api/billing/redeem', { body: { code } })), { invalidate: [keys.me] });
  return (
    <Card title="Redeem a code">
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          redeem.mutate(formValues(e.currentTarget).code ?? '');
        }}
      >
        <Input label="Code" name="code" autoComplete="off" required />
        <Button type="submit" busy={redeem.isPending}>
          Redeem
        </Button>
      </form>
      {redeem.isSuccess ? <Notice tone="success">The code's credit was added to your balance.</Notice> : null}
      <ErrorMessage error={redeem.error} />
    </Card>
  );
}

function Deposits({ watch }: { watch?: boolean }) {
  const [page, setPage] = useState(1);
  const deposits = useQuery({
    queryKey: keys.deposits(page),
    queryFn: () => call(() => api.GET('/api/billing/deposit', { params: { query: { page, limit: 10 } } })),
    // after the gateway's return the newest deposit is credited by a job: follow it until then
    refetchInterval: (q) => (watch && q.state.data?.data.some((d) => d.status === 'Pending' || (d.status === 'Paid' && !d.credited_at)) ? 1500 : false),
  });
  return (
    <Card title="Deposits">
      <p>
        <a href="/api/billing/deposit/export/pdf" download>
          Download all deposits (PDF)
        </a>
      </p>
      <Loaded query={deposits}>
        {(r) => (
          <>
            <Table caption="Deposits" head={['Date', 'Method', 'Amount', 'Status', 'Credited', 'Invoice']} empty={r.data.length === 0}>
              {r.data.map((d) => (
                <tr key={d.invoice_id}>
                  <td>{when(d.created_at)}</td>
                  <td>{d.method_name}</td>
                  <td className="num">{money(d.amount, d.currency)}</td>
                  <td>
                    <Status value={d.status} />
                    {d.status === 'Pending' && d.payment_url ? (
                      <>
                        {' '}
                        <a href={d.payment_url}>Pay now</a>
                      </>
                    ) : null}
                  </td>
                  <td>{d.credited_at ? when(d.credited_at) : '—'}</td>
                  <td>
                    {d.status === 'Paid' ? (
                      <a href={`/api/billing/invoice/${d.invoice_id}/download`} download>
                        PDF
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
    </Card>
  );
}

function Postpaid() {
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [method, setMethod] = useState('');
  const summary = useQuery({ queryKey: keys.postpaid.summary, queryFn: () => get(() => api.GET('/api/billing/postpaid/summary')) });
  const invoices = useQuery({ queryKey: keys.postpaid.invoices(page), queryFn: () => call(() => api.GET('/api/billing/postpaid/invoices', { params: { query: { page, limit: 10 } } })) });
  const followPayment = (r: { payment: { payment_url: string } | null }) => {
    if (r.payment) window.location.assign(r.payment.payment_url);
  };
  const pay = useAction(
    (id: string) => get(() => api.POST('/api/billing/postpaid/invoices/{invoice_id}/pay', { params: { path: { invoice_id: id }, header: { 'idempotency-key': crypto.randomUUID() } }, body: method ? splitMethod(method) : {} })),
    { invalidate: [keys.postpaid.all, keys.me], onSuccess: followPayment },
  );
  const bulk = useAction(
    () => get(() => api.POST('/api/billing/postpaid/payment', { params: { header: { 'idempotency-key': crypto.randomUUID() } }, body: { invoice_ids: selected, ...splitMethod(method) } })),
    { invalidate: [keys.postpaid.all, keys.me], onSuccess: followPayment },
  );
  const methods = usePaymentMethods();
  return (
    <Card title="Postpaid invoices">
      {summary.data ? (
        <p>
          Unpaid: <b>{money(summary.data.total_unpaid, summary.data.currency)}</b> in {summary.data.unpaid_count} invoice(s), {summary.data.overdue_count} overdue. This month so far:{' '}
          {money(summary.data.current_period_accrued, summary.data.currency)}.
        </p>
      ) : null}
      <Select
        label="Pay the rest with (when the balance is not enough)"
        value={method}
        onChange={(e) => setMethod(e.target.value)}
        placeholder="Balance only"
        options={(methods.data ?? []).map((m) => ({ value: `${m.gateway_name}:${m.method_code}`, label: `${m.name} via ${m.gateway_label}` }))}
      />
      <ErrorMessage error={pay.error ?? bulk.error} />
      <Loaded query={invoices}>
        {(r) => (
          <>
            <Table caption="Postpaid invoices" head={['Select', 'Number', 'Period', 'Due', 'Amount due', 'Status', '']} empty={r.data.length === 0}>
              {r.data.map((i) => (
                <tr key={i.invoice_id}>
                  <td>
                    {i.status !== 'PAID' ? (
                      <input
                        type="checkbox"
                        aria-label={`Select ${i.number}`}
                        checked={selected.includes(i.invoice_id)}
                        onChange={(e) => setSelected((s) => (e.target.checked ? [...s, i.invoice_id] : s.filter((x) => x !== i.invoice_id)))}
                      />
                    ) : null}
                  </td>
                  <td>{i.number}</td>
                  <td>
                    {when(i.period_start)} – {when(i.period_end)}
                  </td>
                  <td>{when(i.due_at)}</td>
                  <td className="num">{money(i.amount_due, i.currency)}</td>
                  <td>
                    <Status value={i.status} />
                  </td>
                  <td className="row">
                    <a href={`/api/billing/invoice/${i.invoice_id}/download`} download>
                      PDF
                    </a>
                    {i.status !== 'PAID' ? (
                      <Button kind="secondary" busy={pay.isPending && pay.variables === i.invoice_id} disabled={pay.isPending} onClick={() => pay.mutate(i.invoice_id)}>
                        Pay
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
      <p className="row">
        <Button busy={bulk.isPending} disabled={selected.length === 0 || !method} onClick={() => bulk.mutate(undefined)}>
          Pay {selected.length} selected together
        </Button>
        {!method && selected.length > 0 ? <span className="muted">Choose a payment method for a payment of several invoices.</span> : null}
      </p>
    </Card>
  );
}

export function Billing() {
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'prepaid';
  return (
    <Page title="Billing">
      <p className="muted">
        Balance <b>{money(me.data?.current_balance)}</b> · <Link to="/billing/topup">Top up</Link>
      </p>
      <div className="row" role="tablist" aria-label="Billing sections">
        {[
          ['prepaid', 'Top-ups and deposits'],
          ['postpaid', 'Postpaid invoices'],
          ['budget', 'Budget'],
        ].map(([key, label]) => (
          <Button key={key} kind={tab === key ? 'primary' : 'secondary'} role="tab" aria-selected={tab === key} onClick={() => setParams({ tab: key! })}>
            {label}
          </Button>
        ))}
      </div>
      <div className="stack">
        {tab === 'budget' ? (
          <BudgetCard />
        ) : tab === 'postpaid' ? (
          <Postpaid />
        ) : (
          <>
            <TopUpForm />
            <RedeemForm />
            <Deposits />
          </>
        )}
      </div>
    </Page>
  );
}

/** Where the gateway sends the customer back: the result, the balance as the credit lands. */
export function TopUp() {
  const [params] = useSearchParams();
  const status = params.get('status');
  const me = useQuery({ queryKey: keys.me, queryFn: () => get(() => api.GET('/api/inf')), refetchInterval: status === 'success' ? 2000 : false });
  return (
    <Page title="Top up">
      {status === 'success' ? <Notice tone="success">Payment received. Your balance is updated as soon as the gateway's confirmation is processed.</Notice> : null}
      {status === 'failed' ? <Notice tone="warning">The payment failed or was cancelled. Nothing was charged.</Notice> : null}
      {status === 'pending' ? <Notice>The payment is still pending at the gateway.</Notice> : null}
      <p>
        Balance: <b data-testid="topup-balance">{money(me.data?.current_balance)}</b>
      </p>
      <TopUpForm />
      <Deposits watch={status === 'success'} />
    </Page>
  );
}
