/**
 * The template a question was made from. The seed's generated questions have ids `q-g-<section>-<generator>-NN`
 * (generate in seed/data/generated/kit.ts): one generator's questions are one family, the same structure with
 * other numbers. Every other question is a family of its own.
 */
export const questionFamily = (id: string): string => (id.startsWith('q-g-') ? id.replace(/-\d+$/, '') : id);
