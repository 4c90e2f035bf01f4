import { useQuery } from '@tanstack/react-query';
import { api, get } from '../../api/client';
import { keys } from '../../api/keys';
import { Button, Card, Checkbox, ErrorMessage, formValues, Input, Loaded, money, Notice, Table, useAction, when } from '../../ui/kit';
import { useMemberCan } from './accounts';

/** "50, 80, 100" → [50, 80, 100]; blanks and commas are separators. */
function thresholdsOf(text: string): number[] {
  return text
    .split(/[\s,;]+/)
    .filter((x) => x !== '')
    .map(Number);
}

/** The billing page's Budget card: the monthly budget, its thresholds, the runway alert, this month's spend. */
export function BudgetCard() {
  const can = useMemberCan();
  const budget = useQuery({ queryKey: keys.budget, queryFn: () => get(() => api.GET('/api/billing/budget')) });
  const save = useAction(
    (body: { monthly_amount: number | null; thresholds: number[]; runway_alert_days: number | null }) => get(() => api.PUT('/api/billing/budget', { body })),
    { invalidate: [keys.budget] },
  );
  const editable = can('PUT /api/billing/budget');
  return (
    <Card title="Budget">
      <Loaded query={budget}>
        {(b) => (
          <>
            <p>
              Charged in {b.month}: <b data-testid="budget-spent">{money(b.spent, b.currency)}</b>
              {b.monthly_amount !== null ? (
                <>
                  {' '}
                  of a budget of <b>{money(b.monthly_amount, b.currency)}</b> ({b.used_percent}%)
                </>
              ) : null}
              {b.runway_hours !== null ? <> · your balance lasts about {b.runway_hours} hours at the current rate</> : null}
            </p>
            {b.runway_alert_open ? <Notice tone="warning">Your balance lasts fewer than {b.runway_alert_days} days at the current rate. Top up to keep your resources running.</Notice> : null}
            {b.crossed.length > 0 ? (
              <Table caption="Thresholds reached this month" head={['Threshold', 'Charged then', 'Budget then', 'When']}>
                {b.crossed.map((c) => (
                  <tr key={c.threshold_percent}>
                    <td>{c.threshold_percent}%</td>
                    <td className="num">{money(c.spent, b.currency)}</td>
                    <td className="num">{money(c.budget, b.currency)}</td>
                    <td>{when(c.crossed_at)}</td>
                  </tr>
                ))}
              </Table>
            ) : null}
            {editable ? (
              <form
                className="form"
                onSubmit={(e) => {
                  e.preventDefault();
                  const v = formValues(e.currentTarget);
                  save.mutate({
                    monthly_amount: v.monthly_amount ? Number(v.monthly_amount) : null,
                    thresholds: thresholdsOf(v.thresholds ?? ''),
                    runway_alert_days: v.runway_on === 'on' && v.runway_alert_days ? Number(v.runway_alert_days) : null,
                  });
                }}
              >
                <Input
                  label={`Monthly budget (${b.currency})`}
                  name="monthly_amount"
                  type="number"
                  inputMode="decimal"
                  min="0.01"
                  step="0.01"
                  defaultValue={b.monthly_amount ?? ''}
                  hint="Leave empty for no budget. Charges are never stopped: you are told."
                />
                <Input label="Notify at (percent of the budget)" name="thresholds" defaultValue={b.thresholds.join(', ')} required hint="Each is told once a month, in the app, by e-mail (when billing reminders are on) and by webhook." />
                {b.billing_type === 'PREPAID' ? (
                  <>
                    <Checkbox label="Warn me when my balance runs low" name="runway_on" defaultChecked={b.runway_alert_days !== null} />
                    <Input label="Days of balance left to warn at" name="runway_alert_days" type="number" min={1} max={365} step={1} defaultValue={b.runway_alert_days ?? 7} />
                  </>
                ) : null}
                <ErrorMessage error={save.error} />
                {save.isSuccess ? <p role="status">Budget saved.</p> : null}
                <Button type="submit" busy={save.isPending}>
                  Save budget
                </Button>
              </form>
            ) : (
              <p className="muted">{b.configured ? `Notified at ${b.thresholds.join(', ')}% of the budget.` : 'No budget is set.'}</p>
            )}
          </>
        )}
      </Loaded>
    </Card>
  );
}
