import { useQuery } from '@tanstack/react-query';
import { api, get } from '../../api/client';
import { Button, Card, ErrorMessage, formValues, Input, Loaded, Notice, TextArea, useAction } from '../../ui/kit';
import { useCan } from '../access';
import { keys } from '../../api/keys';

/** The company printed as the issuer of every receipt and invoice. */
export function CompanyDetails() {
  const can = useCan();
  const company = useQuery({ queryKey: keys.staff.company, queryFn: () => get(() => api.GET('/api/backoffice/setting/company')) });
  const save = useAction((body: { legal_name: string; address: string; tax_number: string | null }) => get(() => api.PUT('/api/backoffice/setting/company', { body })), { invalidate: [keys.staff.company] });
  const editable = can('PUT /api/backoffice/setting/company');
  return (
    <Card title="Company on receipts and invoices">
      <Loaded query={company}>
        {(c) => (
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              const v = formValues(e.currentTarget);
              save.mutate({ legal_name: v.legal_name ?? '', address: v.address ?? '', tax_number: v.tax_number?.trim() ? v.tax_number.trim() : null });
            }}
          >
            {c.legal_name === null ? <Notice tone="warning">Not set yet: receipts and invoices name the application as their issuer until you save these details.</Notice> : null}
            <Input label="Legal name" name="legal_name" defaultValue={c.legal_name ?? ''} required maxLength={200} readOnly={!editable} />
            <TextArea label="Address (one line per line on the document, at most 6)" name="address" defaultValue={c.address ?? ''} required maxLength={500} readOnly={!editable} />
            <Input label="Tax number" name="tax_number" defaultValue={c.tax_number ?? ''} maxLength={50} hint="Letters, digits, spaces, dots, slashes and dashes. Leave empty to print none." readOnly={!editable} />
            <ErrorMessage error={save.error} />
            {save.isSuccess ? <p role="status">Saved. Every receipt and invoice made from now on carries these details.</p> : null}
            {editable ? (
              <Button type="submit" busy={save.isPending}>
                Save the company details
              </Button>
            ) : null}
          </form>
        )}
      </Loaded>
    </Card>
  );
}
