// One message in the three product languages (en-US, pt-BR, es), as the catalogues write it.
export type MessageLocale = 'pt-BR' | 'es' | 'en-US';
export type Wording = Readonly<Record<MessageLocale, string>>;
export const w = (en: string, pt: string, es: string): Wording => ({ 'en-US': en, 'pt-BR': pt, es });
