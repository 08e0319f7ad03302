// The sign-in screens' form checks (validation.ts, on the domain's zod schemas) as a chunk of their own, loaded on
// the first submit: the login page's first paint does not carry zod (issue #13, page weight).
export const loadChecks = () => import('./validation.ts');
