import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call, get } from '../api/client';
import { Button, Card, ConfirmButton, ErrorMessage, formValues, Input, Loaded, money, Page, Pager, Select, Status, Table, useAction, when } from '../ui/kit';
import { useCan } from './access';
import { keys } from '../api/keys';

const iso = (local?: string) => (local ? new Date(local).toISOString() : null);

function Coupons() {
  const can = useCan();
  const [page, setPage] = useState(1);
  const coupons = useQuery({ queryKey: keys.staff.coupons.page(page), queryFn: () => call(() => api.GET('/api/backoffice/coupons', { params: { query: { page, limit: 10 } } })) });
  const create = useAction((v: Record<string, string>) =>
    get(() =>
      api.POST('/api/backoffice/coupons', {
        body: {
          code: v.code ?? '',
          type: v.type === 'FIXED' ? 'FIXED' : 'PERCENT',
          value: Number(v.value),
          ...(v.max_bonus ? { max_bonus: Number(v.max_bonus) } : {}),
          ...(v.min_deposit ? { min_deposit: Number(v.min_deposit) } : {}),
          ...(v.usage_limit ? { usage_limit: Number(v.usage_limit) } : {}),
          valid_from: iso(v.valid_from),
          valid_until: iso(v.valid_until),
        },
      }),
    ),
  { invalidate: [keys.staff.coupons.all] });
  const toggle = useAction((c: { id: number; is_active: boolean }) => get(() => api.PATCH('/api/backoffice/coupons/{id}', { params: { path: { id: c.id } }, body: { is_active: !c.is_active } })), { invalidate: [keys.staff.coupons.all] });
  const remove = useAction((id: number) => call(() => api.DELETE('/api/backoffice/coupons/{id}', { params: { path: { id } } })), { invalidate: [keys.staff.coupons.all] });
  const manage = can('POST /api/backoffice/coupons');
  return (
    <Card title="Top-up coupons">
      <ErrorMessage error={toggle.error ?? remove.error} />
      <Loaded query={coupons}>
        {(r) => (
          <>
            <Table caption="Coupons" head={['Code', 'Bonus', 'Minimum deposit', 'Used', 'Valid', 'Status', '']} empty={r.data.length === 0}>
              {r.data.map((c) => (
                <tr key={c.id}>
                  <td>{c.code}</td>
                  <td>{c.type === 'PERCENT' ? `${c.value}%${c.max_bonus ? ` up to ${money(c.max_bonus)}` : ''}` : money(c.value)}</td>
                  <td className="num">{money(c.min_deposit)}</td>
                  <td className="num">{c.used_count}</td>
                  <td>
                    {when(c.valid_from)} – {when(c.valid_until)}
                  </td>
                  <td>
                    <Status value={c.is_active ? 'Active' : 'Disabled'} />
                  </td>
                  <td className="row">
                    {manage ? (
                      <>
                        <Button kind="secondary" busy={toggle.isPending && toggle.variables?.id === c.id} onClick={() => toggle.mutate(c)}>
                          {c.is_active ? 'Disable' : 'Enable'}
                        </Button>
                        <ConfirmButton label="Delete" confirm="Delete this coupon?" onConfirm={() => remove.mutate(c.id)} />
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
      {manage ? (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(formValues(e.currentTarget));
          }}
        >
          <h3>New coupon</h3>
          <Input label="Code" name="code" required />
          <Select label="Type" name="type" options={[{ value: 'PERCENT', label: 'Percent of the deposit' }, { value: 'FIXED', label: 'Fixed amount' }]} />
          <Input label="Value" name="value" type="number" min={0} step="0.01" required />
          <Input label="Bonus cap (optional)" name="max_bonus" type="number" min={0} step="0.01" />
          <Input label="Minimum deposit (optional)" name="min_deposit" type="number" min={0} step="0.01" />
          <Input label="Usage limit (optional)" name="usage_limit" type="number" min={1} />
          <Input label="Valid from (optional)" name="valid_from" type="datetime-local" />
          <Input label="Valid until (optional)" name="valid_until" type="datetime-local" />
          <ErrorMessage error={create.error} />
          <Button type="submit" busy={create.isPending}>
            Create coupon
          </Button>
        </form>
      ) : null}
    </Card>
  );
}

function RedeemCodes() {
  const can = useCan();
  const [page, setPage] = useState(1);
  const codes = useQuery({ queryKey: keys.staff.redeemCodes.page(page), queryFn: () => call(() => api.GET('/api/backoffice/redeem-codes', { params: { query: { page, limit: 10 } } })) });
  const create = useAction(
    (v: Record<string, string>) =>
      get(() =>
        api.POST('/api/backoffice/redeem-codes', {
          body: { code: v.code ?? '', amount: Number(v.amount), ...(v.usage_limit ? { usage_limit: Number(v.usage_limit) } : {}), valid_from: iso(v.valid_from), valid_until: iso(v.valid_until) },
        }),
      ),
    { invalidate: [keys.staff.redeemCodes.all] },
  );
  const remove = useAction((id: number) => call(() => api.DELETE('/api/backoffice/redeem-codes/{id}', { params: { path: { id } } })), { invalidate: [keys.staff.redeemCodes.all] });
  const manage = can('POST /api/backoffice/redeem-codes');
  return (
    <Card title="Redeem codes">
      <ErrorMessage error={remove.error} />
      <Loaded query={codes}>
        {(r) => (
          <Table caption="Redeem codes" head={['Code', 'Credit', 'Used', 'Valid', 'Status', '']} empty={r.data.length === 0}>
            {r.data.map((c) => (
              <tr key={c.id}>
                <td>{c.code}</td>
                <td className="num">{money(c.amount)}</td>
                <td className="num">{c.used_count}</td>
                <td>
                  {when(c.valid_from)} – {when(c.valid_until)}
                </td>
                <td>
                  <Status value={c.is_active ? 'Active' : 'Disabled'} />
                </td>
                <td>{manage ? <ConfirmButton label="Delete" confirm="Delete this code?" onConfirm={() => remove.mutate(c.id)} /> : null}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      <Pager page={page} totalPages={codes.data?.meta.total_pages ?? 1} onPage={setPage} />
      {manage ? (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(formValues(e.currentTarget));
          }}
        >
          <Input label="Code" name="code" required />
          <Input label="Credit" name="amount" type="number" min={0.01} step="0.01" required />
          <Input label="Usage limit" name="usage_limit" type="number" min={1} />
          <Input label="Valid from" name="valid_from" type="datetime-local" />
          <Input label="Valid until" name="valid_until" type="datetime-local" />
          <Button type="submit" busy={create.isPending}>
            Create code
          </Button>
        </form>
      ) : null}
      <ErrorMessage error={create.error} />
    </Card>
  );
}

function Rewards() {
  const rewards = useQuery({ queryKey: keys.staff.rewards, queryFn: () => get(() => api.GET('/api/backoffice/rewards/settings')) });
  const save = useAction(
    (v: Record<string, string>) =>
      get(() =>
        api.PUT('/api/backoffice/rewards/settings', {
          body: {
            first_top_up_percent: Number(v.first_top_up_percent ?? 0),
            first_top_up_max_bonus: v.first_top_up_max_bonus ? Number(v.first_top_up_max_bonus) : null,
            referral_percent: Number(v.referral_percent ?? 0),
            referral_max_bonus: v.referral_max_bonus ? Number(v.referral_max_bonus) : null,
          },
        }),
      ),
    { invalidate: [keys.staff.rewards] },
  );
  return (
    <Card title="Rewards">
      <Loaded query={rewards}>
        {(r) => (
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate(formValues(e.currentTarget));
            }}
          >
            <Input label="First top-up bonus (percent)" name="first_top_up_percent" type="number" min={0} max={100} step="0.01" defaultValue={r.first_top_up_percent} />
            <Input label="First top-up bonus cap" name="first_top_up_max_bonus" type="number" min={0} step="0.01" defaultValue={r.first_top_up_max_bonus ?? ''} />
            <Input label="Referral bonus (percent)" name="referral_percent" type="number" min={0} max={100} step="0.01" defaultValue={r.referral_percent} />
            <Input label="Referral bonus cap" name="referral_max_bonus" type="number" min={0} step="0.01" defaultValue={r.referral_max_bonus ?? ''} />
            <ErrorMessage error={save.error} />
            {save.isSuccess ? <p role="status">Saved.</p> : null}
            <Button type="submit" busy={save.isPending}>
              Save
            </Button>
          </form>
        )}
      </Loaded>
    </Card>
  );
}

export default function Promotions() {
  const can = useCan();
  return (
    <Page title="Coupons, redeem codes and rewards">
      <Coupons />
      {can('GET /api/backoffice/redeem-codes') ? <RedeemCodes /> : null}
      {can('GET /api/backoffice/rewards/settings') ? <Rewards /> : null}
    </Page>
  );
}
