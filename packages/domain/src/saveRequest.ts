// Create or update: which request saves an object of the Traccar API (POST to the collection, PUT to the id). Its
// own zod-free module because the web's resource client, in every page's first download, uses it.

/** An id as a number (NaN when absent or not numeric). */
export function numericId(id: unknown): number {
  if (typeof id === 'number') return id;
  if (typeof id === 'string' && id.trim() !== '') return Number(id);
  return NaN;
}

/** Update when the id is present and above 0, otherwise create (0, -1 for a new anchor, missing). */
export function isUpdate(id: unknown): boolean {
  const n = numericId(id);
  return Number.isFinite(n) && n > 0;
}

export function saveRequest(basePath: string, id: unknown): { method: 'PUT' | 'POST'; path: string } {
  return isUpdate(id)
    ? { method: 'PUT', path: `${basePath}/${numericId(id)}` }
    : { method: 'POST', path: basePath };
}
