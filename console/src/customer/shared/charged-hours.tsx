import { Fragment, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { Card, Loaded, money, Pager, Table } from '../../ui/kit';
import { keys } from '../../api/keys';

const hourText = (iso: string) => {
  const from = new Date(iso);
  const to = new Date(from.getTime() + 3_600_000);
  return `${from.toISOString().slice(0, 16).replace('T', ' ')}–${to.toISOString().slice(11, 16)} UTC`;
};

const duration = (seconds: number) => (seconds === 3600 ? 'whole hour' : `${Math.floor(seconds / 60)} min ${seconds % 60} s`);

/** The charged hours, newest first, each with what it charged: a resource that changed price within the hour has a line per part. */
export function ChargedHours() {
  const [page, setPage] = useState(1);
  const hours = useQuery({ queryKey: keys.usageHours(page), queryFn: () => call(() => api.GET('/api/billing/usage/hours', { params: { query: { page, limit: 12 } } })) });
  return (
    <Card title="Charged hours">
      <Loaded query={hours}>
        {(r) => (
          <>
            <Table caption="Charged hours" head={['Hour', 'Resource', 'Time', 'Per hour', 'Amount']} empty={r.data.length === 0}>
              {r.data.map((h) => (
                <Fragment key={h.hour}>
                  {h.lines.map((l, i) => (
                    <tr key={`${l.resource_type}-${l.resource_id}-${i}`}>
                      <td>{i === 0 ? hourText(h.hour) : ''}</td>
                      <td className="break">{l.description}</td>
                      <td>{duration(l.seconds)}</td>
                      <td className="num">
                        {money(l.hourly_price)}
                        {l.quantity === 1 ? '' : ` × ${l.quantity}`}
                      </td>
                      <td className="num">{money(l.amount)}</td>
                    </tr>
                  ))}
                  <tr>
                    <td />
                    <td colSpan={3}>
                      <b>{h.postpaid ? 'Accrued for the invoice' : 'Charged'}</b>
                    </td>
                    <td className="num">
                      <b>{money(h.amount)}</b>
                    </td>
                  </tr>
                </Fragment>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
    </Card>
  );
}
