import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = '// Generated from the served OpenAPI document by `npm run console:api`. Do not edit.\n';

/** The console's API types for an OpenAPI document (openapi-typescript). */
export async function renderApiTypes(doc: object): Promise<string> {
  const ast = await openapiTS(structuredClone(doc) as never, { alphabetize: true, rootTypes: false });
  return HEADER + astToString(ast);
}
