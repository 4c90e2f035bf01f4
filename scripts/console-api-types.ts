import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = '// Generated from the served OpenAPI document by `npm run console:api`. Do not edit.\n';

/** The console's API types for an OpenAPI document (openapi-typescript). */
export async function renderApiTypes(doc: object): Promise<string> {
  const ast = await openapiTS(structuredClone(doc) as never, { alphabetize: true, rootTypes: false });
  return HEADER + astToString(ast);
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The permission each backoffice operation needs (its `x-permission`), keyed "METHOD path" as the client names them. */
export function renderApiPermissions(doc: { paths?: Record<string, Record<string, { 'x-permission'?: string }>> }): string {
  const rows: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const method of METHODS) {
      const permission = item[method]?.['x-permission'];
      if (permission) rows.push(`  '${method.toUpperCase()} ${path}': '${permission}',`);
    }
  }
  return `${HEADER}/** The permission each backoffice operation needs (the x-permission of its OpenAPI operation). */\nexport const OPERATION_PERMISSIONS = {\n${rows.join('\n')}\n} as const;\n`;
}
