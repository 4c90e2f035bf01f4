import { useQuery } from '@tanstack/react-query';
import { api, call, get } from '../api/client';
import { Button, Card, Checkbox, ConfirmButton, ErrorMessage, formValues, Input, Loaded, Notice, Page, Select, Table, useAction } from '../ui/kit';
import { useCan } from './access';
import { CompanyDetails } from './shared/company';
import { keys } from '../api/keys';

function AppSettings() {
  const can = useCan();
  const settings = useQuery({ queryKey: keys.staff.settings, queryFn: () => get(() => api.GET('/api/backoffice/setting')) });
  const save = useAction((body: { app_name: string; privacy_policy_url: string; terms_and_conditions_url: string; maintenance_mode: boolean }) => get(() => api.PUT('/api/backoffice/setting/update', { body })), { invalidate: [keys.staff.settings] });
  return (
    <Card title="Application">
      <Loaded query={settings}>
        {(s) => (
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              const v = formValues(e.currentTarget);
              save.mutate({ app_name: v.app_name ?? '', privacy_policy_url: v.privacy_policy_url ?? '', terms_and_conditions_url: v.terms_and_conditions_url ?? '', maintenance_mode: v.maintenance_mode === 'on' });
            }}
          >
            {s.maintenance_mode ? <Notice tone="warning">Maintenance mode is on: customers see the maintenance page; the backoffice keeps working.</Notice> : null}
            <Input label="Application name" name="app_name" defaultValue={s.app_name} required />
            <Input label="Privacy policy URL" name="privacy_policy_url" type="url" defaultValue={s.privacy_policy_url} />
            <Input label="Terms and conditions URL" name="terms_and_conditions_url" type="url" defaultValue={s.terms_and_conditions_url} />
            <Checkbox label="Maintenance mode" name="maintenance_mode" defaultChecked={s.maintenance_mode} />
            <ErrorMessage error={save.error} />
            {save.isSuccess ? <p role="status">Saved.</p> : null}
            {can('PUT /api/backoffice/setting/update') ? (
              <Button type="submit" busy={save.isPending}>
                Save
              </Button>
            ) : null}
          </form>
        )}
      </Loaded>
    </Card>
  );
}

function Colors() {
  const can = useCan();
  const colors = useQuery({ queryKey: keys.staff.colors, queryFn: () => get(() => api.GET('/api/backoffice/setting/color')) });
  const save = useAction((body: { primary_color: string; secondary_color: string; error_color: string }) => call(() => api.POST('/api/backoffice/setting/color', { body })), { invalidate: [keys.staff.colors] });
  return (
    <Card title="Theme colours">
      <Loaded query={colors}>
        {(c) => (
          <form
            className="inline"
            onSubmit={(e) => {
              e.preventDefault();
              const v = formValues(e.currentTarget);
              save.mutate({ primary_color: v.primary_color ?? '', secondary_color: v.secondary_color ?? '', error_color: v.error_color ?? '' });
            }}
          >
            <Input label="Primary" name="primary_color" type="color" defaultValue={c.primary_color} />
            <Input label="Secondary" name="secondary_color" type="color" defaultValue={c.secondary_color} />
            <Input label="Error" name="error_color" type="color" defaultValue={c.error_color} />
            {can('POST /api/backoffice/setting/color') ? (
              <Button type="submit" busy={save.isPending}>
                Save colours
              </Button>
            ) : null}
          </form>
        )}
      </Loaded>
      <ErrorMessage error={save.error} />
    </Card>
  );
}

const TWO_FACTOR_SCOPES = [
  { value: 'nobody', label: 'Nobody (each staff member may turn it on)' },
  { value: 'money_roles', label: 'Staff whose role moves money (balances, invoices, coupons, prices)' },
  { value: 'all_staff', label: 'All staff' },
] as const;
type Scope = (typeof TWO_FACTOR_SCOPES)[number]['value'];

function StaffTwoFactor() {
  const can = useCan();
  const policy = useQuery({ queryKey: keys.staff.twoFactorPolicy, queryFn: () => get(() => api.GET('/api/backoffice/setting/staff-2fa')) });
  const save = useAction((required_for: Scope) => get(() => api.PUT('/api/backoffice/setting/staff-2fa', { body: { required_for } })), { invalidate: [keys.staff.twoFactorPolicy] });
  return (
    <Card title="Staff two-factor authentication">
      <Loaded query={policy}>
        {(p) => (
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate(formValues(e.currentTarget).required_for as Scope);
            }}
          >
            <Select
              label="Required for"
              name="required_for"
              defaultValue={p.required_for}
              disabled={!can('PUT /api/backoffice/setting/staff-2fa')}
              options={TWO_FACTOR_SCOPES.map((o) => ({ value: o.value, label: o.label }))}
            />
            <p className="muted">Staff who must use it and have not set it up are led through the set-up at their next login.</p>
            {save.isSuccess ? <Notice tone="success">Saved.</Notice> : null}
            <ErrorMessage error={save.error} />
            {can('PUT /api/backoffice/setting/staff-2fa') ? (
              <Button type="submit" busy={save.isPending}>
                Save
              </Button>
            ) : null}
          </form>
        )}
      </Loaded>
    </Card>
  );
}

function Charging() {
  const charging = useQuery({ queryKey: keys.staff.charging, queryFn: () => get(() => api.GET('/api/backoffice/setting/charging')) });
  const save = useAction((body: { low_balance_warning_hours: number; postpaid_due_days: number; postpaid_suspend_grace_days: number; runway_warning_hours: number }) => get(() => api.PUT('/api/backoffice/setting/charging', { body })), {
    invalidate: [keys.staff.charging],
  });
  return (
    <Card title="Charging">
      <Loaded query={charging}>
        {(c) => (
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              const v = formValues(e.currentTarget);
              save.mutate({ low_balance_warning_hours: Number(v.low_balance_warning_hours), postpaid_due_days: Number(v.postpaid_due_days), postpaid_suspend_grace_days: Number(v.postpaid_suspend_grace_days), runway_warning_hours: Number(v.runway_warning_hours) });
            }}
          >
            <Input label="Low-balance warning (hours of runway)" name="low_balance_warning_hours" type="number" min={0} defaultValue={c.low_balance_warning_hours} />
            <Input label="Runway warning on the home screen (hours)" name="runway_warning_hours" type="number" min={0} defaultValue={c.runway_warning_hours} />
            <Input label="Postpaid invoice due after (days)" name="postpaid_due_days" type="number" min={1} defaultValue={c.postpaid_due_days} />
            <Input label="Postpaid suspension grace (days)" name="postpaid_suspend_grace_days" type="number" min={0} defaultValue={c.postpaid_suspend_grace_days} />
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

function FirewallRuleTypes() {
  const can = useCan();
  const types = useQuery({ queryKey: keys.staff.ruleTypes, queryFn: () => get(() => api.GET('/api/backoffice/setting/firewall-rule-types')) });
  const create = useAction((body: { name: string; protocol: 'tcp' | 'udp' | 'icmp' | 'any'; description: string; default_port?: number }) => call(() => api.POST('/api/backoffice/setting/firewall-rule-types/create', { body })), { invalidate: [keys.staff.ruleTypes] });
  const remove = useAction((id: number) => call(() => api.DELETE('/api/backoffice/setting/firewall-rule-types/{id}/delete', { params: { path: { id } } })), { invalidate: [keys.staff.ruleTypes] });
  return (
    <Card title="Firewall rule types">
      <Loaded query={types}>
        {(rows) => (
          <Table caption="Firewall rule types" head={['Name', 'Protocol', 'Port', 'Description', '']} empty={rows.length === 0}>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{r.name}</td>
                <td>{r.protocol}</td>
                <td>{r.default_port ?? '—'}</td>
                <td>{r.description}</td>
                <td>{can('DELETE /api/backoffice/setting/firewall-rule-types/{id}/delete') ? <ConfirmButton label="Delete" confirm="Delete this rule type?" busy={remove.isPending && remove.variables === r.id} onConfirm={() => remove.mutate(r.id)} /> : null}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      <ErrorMessage error={remove.error ?? create.error} />
      {can('POST /api/backoffice/setting/firewall-rule-types/create') ? (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            create.mutate({ name: v.name ?? '', protocol: (v.protocol ?? 'tcp') as 'tcp', description: v.description ?? '', ...(v.default_port ? { default_port: Number(v.default_port) } : {}) });
            e.currentTarget.reset();
          }}
        >
          <Input label="Name" name="name" required />
          <Select label="Protocol" name="protocol" options={['tcp', 'udp', 'icmp', 'any'].map((p) => ({ value: p, label: p }))} />
          <Input label="Description" name="description" required />
          <Input label="Default port (tcp, udp)" name="default_port" type="number" min={1} max={65535} />
          <Button type="submit" busy={create.isPending}>
            Add
          </Button>
        </form>
      ) : null}
    </Card>
  );
}

export default function Settings() {
  const can = useCan();
  return (
    <Page title="Settings">
      <AppSettings />
      {can('GET /api/backoffice/setting/company') ? <CompanyDetails /> : null}
      {can('GET /api/backoffice/setting/color') ? <Colors /> : null}
      {can('GET /api/backoffice/setting/staff-2fa') ? <StaffTwoFactor /> : null}
      {can('GET /api/backoffice/setting/charging') ? <Charging /> : null}
      {can('GET /api/backoffice/setting/firewall-rule-types') ? <FirewallRuleTypes /> : null}
    </Page>
  );
}
