export interface PageRequest {
  page: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export function pageOf(query: { page?: number; limit?: number }): PageRequest {
  return { page: query.page ?? 1, limit: query.limit ?? 10 };
}

export function offsetOf(p: PageRequest): number {
  return (p.page - 1) * p.limit;
}

export function pageMeta(p: PageRequest, total: number) {
  return { page: p.page, limit: p.limit, total, total_pages: Math.ceil(total / p.limit) };
}

/** The list envelope: `{ message, data, meta }`. */
export function paginated<T>(message: string, p: PageRequest, page: Page<T>) {
  return { message, data: page.items, meta: pageMeta(p, page.total) };
}
