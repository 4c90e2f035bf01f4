import { useQueryClient } from '@tanstack/react-query';
import { Page } from '../ui/kit';
import { staffKey, useStaff } from './access';
import { ChangePassword } from './shared/change-password';
import { TwoFactorManage, TwoFactorSetup } from './shared/two-factor';
import { useState } from 'react';

export default function Account() {
  const me = useStaff().data;
  const qc = useQueryClient();
  const [setup, setSetup] = useState(false);
  return (
    <Page title="My account">
      <p>
        {me?.name} · {me?.email} · role {me?.role}
      </p>
      <ChangePassword />
      <h2>Two-factor authentication</h2>
      {setup ? <TwoFactorSetup onDone={() => { setSetup(false); void qc.invalidateQueries({ queryKey: staffKey }); }} /> : <TwoFactorManage />}
      {!setup ? (
        <p>
          <button type="button" className="btn btn-secondary" onClick={() => setSetup(true)}>
            Set up two-factor authentication
          </button>
        </p>
      ) : null}
    </Page>
  );
}
