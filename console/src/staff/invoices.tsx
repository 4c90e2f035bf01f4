import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call, get } from '../api/client';
import { Button, Card, ErrorMessage, formValues, Input, Loaded, money, Page, Pager, Select, Status, Table, useAction, when } from '../ui/kit';
import { useCan } from './access';
import { keys } from '../api/keys';

function Prepaid() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const invoices = useQuery({
    queryKey: keys.staff.prepaidInvoices(page, status),
    queryFn: () => call(() => api.GET('/api/backoffice/billing/prepaid/invoices', { params: { query: { page, limit: 20, ...(status ? { status: status as 'Paid' } : {}) } } })),
  });
  return (
    <Card title="Top-up invoices (prepaid)">
      <Select label="Status" value={status} onChange={(e) => { setStatus(e.target.value); setPage(1); }} placeholder="All" options={['Pending', 'Paid', 'Failed', 'Expired'].map((s) => ({ value: s, label: s }))} />
      <Loaded query={invoices}>
        {(r) => (
          <>
            <Table caption="Top-up invoices" head={['Created', 'Customer', 'Method', 'Amount', 'Status', 'Credited', 'PDF']} empty={r.data.length === 0}>
              {r.data.map((i) => (
                <tr key={i.invoice_id}>
                  <td>{when(i.created_at)}</td>
                  <td>#{i.customer_id}</td>
                  <td>
                    {i.method_name} via {i.gateway_label}
                  </td>
                  <td className="num">{money(i.amount, i.currency)}</td>
                  <td>
                    <Status value={i.status} />
                  </td>
                  <td>{when(i.credited_at)}</td>
                  <td>
                    <a href={`/api/backoffice/billing/export-invoice?id=${i.invoice_id}`} download>
                      Export PDF
                    </a>
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
  const can = useCan();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const [verifying, setVerifying] = useState<string>();
  const invoices = useQuery({
    queryKey: keys.staff.postpaidInvoices.page(page, status),
    queryFn: () => call(() => api.GET('/api/backoffice/billing/postpaid/invoices', { params: { query: { page, limit: 20, ...(status ? { status: status as 'PAID' } : {}) } } })),
  });
  const verify = useAction(
    ({ id, paid_note }: { id: string; paid_note: string }) => get(() => api.PATCH('/api/backoffice/billing/postpaid/invoices/{invoice_id}/verify', { params: { path: { invoice_id: id } }, body: { paid_note } })),
    { invalidate: [keys.staff.postpaidInvoices.all], onSuccess: () => setVerifying(undefined) },
  );
  return (
    <Card title="Postpaid invoices">
      <Select label="Status" value={status} onChange={(e) => { setStatus(e.target.value); setPage(1); }} placeholder="All" options={['UNPAID', 'OVERDUE', 'PAID'].map((s) => ({ value: s, label: s }))} />
      <ErrorMessage error={verify.error} />
      {verifying ? (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            verify.mutate({ id: verifying, paid_note: formValues(e.currentTarget).paid_note ?? '' });
          }}
        >
          <Input label="Payment note (bank transfer reference)" name="paid_note" required />
          <Button type="submit" busy={verify.isPending}>
            Mark paid
          </Button>
          <Button kind="secondary" onClick={() => setVerifying(undefined)}>
            Cancel
          </Button>
        </form>
      ) : null}
      <Loaded query={invoices}>
        {(r) => (
          <>
            <Table caption="Postpaid invoices" head={['Number', 'Customer', 'Due', 'Amount due', 'Status', '']} empty={r.data.length === 0}>
              {r.data.map((i) => (
                <tr key={i.invoice_id}>
                  <td>{i.number}</td>
                  <td>#{i.customer_id}</td>
                  <td>{when(i.due_at)}</td>
                  <td className="num">{money(i.amount_due, i.currency)}</td>
                  <td>
                    <Status value={i.status} />
                  </td>
                  <td className="row">
                    <a href={`/api/backoffice/billing/export-invoice?id=${i.invoice_id}`} download>
                      Export PDF
                    </a>
                    {i.status !== 'PAID' && can('PATCH /api/backoffice/billing/postpaid/invoices/{invoice_id}/verify') ? (
                      <Button kind="secondary" onClick={() => setVerifying(i.invoice_id)}>
                        Verify payment
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
    </Card>
  );
}

export default function Invoices() {
  const can = useCan();
  return (
    <Page title="Invoices">
      <Prepaid />
      {can('GET /api/backoffice/billing/postpaid/invoices') ? <Postpaid /> : null}
    </Page>
  );
}
