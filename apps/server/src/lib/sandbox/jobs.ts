// The conversions a DocumentSandbox child runs, by name, each loaded when first asked for (a child that only reads
// workbooks never loads pdfkit or mammoth). Each takes and returns only values the structured clone carries
// (buffers, plain objects, dates).

const LOADERS = {
  inspectMaterial: async () => (await import('../../modules/materials/inspect.js')).inspectMaterial,
  wordToHtml: async () => (await import('../../modules/materials/word.js')).wordToHtml,
  parseDocx: async () => (await import('../../modules/papers/word-import.js')).parseDocx,
  renderPaperDocx: async () => (await import('../../modules/papers/word-export.js')).renderPaperDocx,
  bindBooklet: async () => (await import('../../modules/materials/booklet.js')).bindBooklet,
  readFirstSheet: async () => (await import('../../modules/school/xlsx.js')).readFirstSheet,
};

export type JobName = keyof typeof LOADERS;
type JobFunction<N extends JobName> = Awaited<ReturnType<(typeof LOADERS)[N]>>;
export type JobArgs<N extends JobName> = Parameters<JobFunction<N>>;
export type JobResult<N extends JobName> = Awaited<ReturnType<JobFunction<N>>>;

/** The function behind a job name. */
export async function loadJob(name: JobName): Promise<(...args: unknown[]) => Promise<unknown>> {
  return (await LOADERS[name]()) as (...args: unknown[]) => Promise<unknown>;
}
