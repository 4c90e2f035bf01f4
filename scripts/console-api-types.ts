import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = '// Generated from the served OpenAPI document by `npm run console:api`. Do not edit.\n';

/** The console's API types for an OpenAPI document (openapi-typescript). */
export async function renderApiTypes(doc: object): Promise<string> {
  const ast = await openapiTS(structuredClone(doc) as never, { alphabetize: true, rootTypes: false });
  return HEADER + astToString(ast);
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * The permission each backoffice operation needs (its `x-permission`) and the member permission each
 * customer operation needs (its `x-member-permission`), keyed "METHOD path" as the client names them.
 */
export function renderApiPermissions(doc: { paths?: Record<string, Record<string, { 'x-permission'?: string; 'x-member-permission'?: string }>> }): string {
  const staff: string[] = [];
  const members: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const method of METHODS) {
      const permission = item[method]?.['x-permission'];
      if (permission) staff.push(`  '${method.toUpperCase()} ${path}': '${permission}',`);
      const member = item[method]?.['x-member-permission'];
      if (member) members.push(`  '${method.toUpperCase()} ${path}': '${member}',`);
    }
  }
  return (
    `${HEADER}/** The permission each backoffice operation needs (the x-permission of its OpenAPI operation). */\nexport const OPERATION_PERMISSIONS = {\n${staff.join('\n')}\n} as const;\n` +
    `\n/** The member permission each customer operation needs (the x-member-permission of its OpenAPI operation). */\nexport const CUSTOMER_OPERATION_PERMISSIONS = {\n${members.join('\n')}\n} as const;\n`
  );
}
