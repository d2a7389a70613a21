export { type AxisScale, type AxisScaleOptions, type AxisTick, axisScale } from './axis-scale.js';
export type { ChartAxis, ChartSeries, ChartSpec } from './chart-spec.js';
export { chiSquareInterval, chiSquareTails } from './chi-square.js';
export { COMMON_GRID_POINTS, commonStepGrid, lastAtOrBefore, sameSteps } from './common-step-grid.js';
export { type BandPoint, curveBand } from './curve-band.js';
export { escapeMarkup } from './escape-markup.js';
export { formatInterval } from './format-interval.js';
export { type LearningCurveOptions, learningCurveChart } from './learning-curve-chart.js';
export { logGamma } from './log-gamma.js';
export { markdownTable } from './markdown-table.js';
export { type MeanInterval, meanInterval } from './mean-interval.js';
export { type OccupancyPoint, occupancyChart } from './occupancy-chart.js';
export { type PageAssets, pageAssets } from './page-assets.js';
export { readRunFolder, VIEWABLE_COMMANDS } from './read-run-folder.js';
export { renderPage } from './render-page.js';
export { renderSvg } from './render-svg.js';
export { reportPage } from './report-page.js';
export type { RunData } from './run-data.js';
export { RunFolderError } from './run-folder-error.js';
export { type SeedBand, seedBand } from './seed-band.js';
export { studentTCdf, studentTQuantile } from './student-t.js';
export type { SummaryTable } from './summary-tables.js';
export {
  type ChartData,
  type CurveData,
  type EnvironmentData,
  type GroupData,
  type ViewModel,
  type ViewModelOptions,
  viewModel,
} from './view-model.js';
