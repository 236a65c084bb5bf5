/** Model-facing description of `read`. */
export const READ_DESCRIPTION = `Read files from the workspace as numbered lines ("     7\\tcontent").

- file_path: one file. offset is 0-based (the first line to return), limit is 1..2000 (default 2000).
- files: 1-32 entries { path, offset?, limit? } read in one bounded response; use it when you already know several relevant paths.
- max_output_bytes (1024..98304, default 65536) caps the whole response, headers and notes included.
- Lines longer than 2000 characters are cut and marked. Binary files are described, not shown. A UTF-16 file (with its byte-order mark, or ASCII-range text without one) is shown decoded, and metadata.encoding names it. A file whose only line ends are CR (old Mac) is shown split at them. A CR inside a line (not its line end) is shown as ^M; give it as \\r to edit.
- When more remains, the result says where to continue: metadata.next_offset for a single file; for a batch, metadata.batch.truncated is true and metadata.batch.continuation is exactly the files argument that resumes where this response stopped, repeating no line.`;
