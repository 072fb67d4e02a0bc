/**
 * The content processing pipeline's steps, in the order they run: the one list the API's schemas, the processing
 * workflow (workflows/content.ts) and the step runners (activities/content/steps.ts, a Record over this type, so a
 * step added here does not compile until it has a runner) share. Bundled into workflow code: pure, no imports.
 */
export const PROCESSING_STEPS = ['extract_text', 'extract_metadata', 'convert', 'thumbnail', 'chunk', 'embed'] as const;
export type ProcessingStep = (typeof PROCESSING_STEPS)[number];

/** A step that needs another's output: skipped when that step did not succeed. */
export const STEP_INPUTS: Partial<Record<ProcessingStep, ProcessingStep>> = { chunk: 'extract_text', embed: 'chunk' };
