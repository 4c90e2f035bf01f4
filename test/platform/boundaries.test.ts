import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

/** The import-boundary messages ESLint gives `code` as if it were the file at `file`. */
async function violations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath: path.resolve(file) });
  return result!.messages.filter((m) => /restricted-(imports|syntax)/.test(m.ruleId ?? '')).map((m) => m.message);
}

const cases: [string, string, boolean][] = [
  // module walls, the short and the long way round
  ['src/modules/billing/billing.service.ts', "import { x } from '../wallet/wallet.service.js';", true],
  ['src/modules/billing/billing.service.ts', "import { x } from '../../modules/wallet/wallet.service.js';", true],
  ['src/modules/billing/billing.admin-routes.ts', "import { x } from '../../modules/wallet/wallet.schemas.js';", true],
  ['src/modules/billing/billing.service.ts', "import { x } from '../../modules/wallet/index.js';", false],
  ['src/modules/billing/billing.service.ts', "import { x } from '../wallet/index.js';", false],
  // repositories may join other modules' tables, however the path is written
  ['src/modules/billing/billing.repository.ts', "import { customers } from '../../modules/customers/customers.tables.js';", false],
  ['src/modules/billing/billing.repository.ts', "import { x } from '../../modules/customers/customers.service.js';", true],
  // routes call services, not repositories (naming a row type is fine)
  ['src/modules/billing/billing.admin-routes.ts', "import { CouponsRepository } from './coupons.repository.js';", true],
  ['src/modules/auth/auth.pages.ts', "import { AuthRepository } from './auth.repository.js';", true],
  ['src/modules/billing/payment-callbacks.routes.ts', "import { BillingRepository } from './billing.repository.js';", true],
  ['src/modules/billing/billing.admin-routes.ts', "import type { CouponRow } from './coupons.repository.js';", false],
  ['src/modules/billing/billing.admin-routes.ts', "import type { CouponsService } from './coupons.service.js';", false],
  // integrations: used through their index; they know no module
  ['src/modules/billing/topups.service.ts', "import { x } from '../../integrations/payment-gateways/pgone.js';", true],
  ['src/modules/billing/payment-callbacks.routes.ts', "import { x } from '../../integrations/payment-gateways/pgone.js';", true],
  ['src/modules/billing/topups.service.ts', "import { x } from '../../integrations/payment-gateways/index.js';", false],
  ['src/integrations/payment-gateways/pgone.ts', "import { x } from '../../modules/billing/index.js';", true],
  ['src/integrations/payment-gateways/pgone.ts', "import { x } from '../../container.js';", true],
  ['src/integrations/payment-gateways/pgone.ts', "import { x } from '../datacenter/simulated.js';", true],
  ['src/integrations/payment-gateways/pgone.ts', "import { x } from '../../platform/errors.js';", false],
  // modules take what they need as factory parameters: they never import a flow or the composition root
  ['src/modules/billing/billing.module.ts', "import { topupCreditedFlow } from '../../flows/topup-credited.js';", true],
  ['src/modules/billing/topup-crediting.service.ts', "import { x } from '../../flows/topup-credited.js';", true],
  ['src/modules/billing/billing.routes.ts', "import type { Container } from '../../container.js';", true],
  ['src/modules/billing/billing.module.ts', "import type { WalletService } from '../wallet/index.js';", false],
  // flows join modules through their index.ts
  ['src/flows/topup-credited.ts', "import { x } from '../modules/billing/topup-crediting.service.js';", true],
  ['src/flows/topup-credited.ts', "import { x } from '../container.js';", true],
  ['src/flows/topup-credited.ts', "import type { TopupCreditListener } from '../modules/billing/index.js';", false],
  // platform knows no feature
  ['src/platform/http/surfaces.ts', "import { x } from '../../modules/audit/index.js';", true],
  // the server never imports the web console; the console only talks HTTP to the server
  ['src/app.ts', "import { x } from '../console/src/api/client.js';", true],
  ['src/platform/http/console.ts', "const x = await import('../../../console/src/main.js');", true],
  ['src/platform/http/console.ts', "import { x } from './html.js';", false],
  ['console/src/main.tsx', "import { x } from '../../src/app.js';", true],
];

describe('the module-boundary lint', () => {
  for (const [file, code, refused] of cases) {
    test(`${refused ? 'refuses' : 'allows'} in ${file}: ${code}`, async () => {
      const messages = await violations(file, code);
      assert.equal(messages.length > 0, refused, messages.join('; ') || 'no message');
    });
  }
});
