// Package metadata reads sample metadata in the tab-separated layout of
// QIIME 2 (the "sample metadata" files that microbiome studies keep beside
// their tables): one row per sample, the sample id in the first column, a
// header row naming the columns.
//
//	sample-id	body-site	days
//	#q2:types	categorical	numeric
//	S1	gut	0
//	S2	tongue	14
//
// Rules, as QIIME 2 applies them:
//
//   - Blank lines, and lines whose first cell starts with '#', are
//     comments, except that the header may name its id column "#SampleID",
//     "#Sample ID", "#OTUID" or "#OTU ID", and a "#q2:types" row right
//     after the header gives each column's type (categorical or numeric).
//   - Cells are trimmed of surrounding spaces; a cell in double quotes has
//     them removed ("" inside stands for one quote).
//   - Column names and sample ids must be unique and non-empty. A row with
//     fewer cells than the header is padded with empty (missing) values;
//     one with more is an error.
//
// Errors name the file and the 1-based line. Read never panics on any
// input.
package metadata
