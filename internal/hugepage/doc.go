// Package hugepage asks the operating system to back memory with huge
// pages. Memory that a process writes once, soon after allocating it,
// then costs one page fault for each 2 MiB instead of one for each 4 KiB.
// The advice is a hint: where huge pages are not available (another
// system, transparent huge pages turned off, or none free), it changes
// nothing, and no result ever depends on it.
package hugepage
