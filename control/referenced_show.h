/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A seq_file show of a debugfs file made with debugfs_create_file_unsafe()
 * (named_files.c, region_files.c), run under the file's debugfs reference:
 * its private data, a counter, series or region, is valid while the
 * reference is held, since debugfs_remove() waits for it before what the
 * file shows goes. Never over a copy to user space: seq_read() copies
 * after the show returns.
 */
#ifndef _PERFKMOD_CONTROL_REFERENCED_SHOW_H
#define _PERFKMOD_CONTROL_REFERENCED_SHOW_H

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>

/* Run @show under the file's debugfs reference; -EIO once it is removed. */
static inline int perfkmod_referenced_show(struct seq_file *m, void *v,
					   int (*show)(struct seq_file *m,
						       void *v))
{
	struct dentry *dentry = m->file->f_path.dentry;
	int err;

	err = debugfs_file_get(dentry);
	if (err)
		return err;
	err = show(m, v);
	debugfs_file_put(dentry);
	return err;
}

/* DEFINE_SHOW_ATTRIBUTE(), but NAME_show runs under the file's reference. */
#define DEFINE_REFERENCED_SHOW_ATTRIBUTE(__name)			\
static int __name ## _referenced_show(struct seq_file *m, void *v)	\
{									\
	return perfkmod_referenced_show(m, v, __name ## _show);		\
}									\
									\
static int __name ## _open(struct inode *inode, struct file *file)	\
{									\
	return single_open(file, __name ## _referenced_show,		\
			   inode->i_private);				\
}									\
									\
static const struct file_operations __name ## _fops = {		\
	.owner = THIS_MODULE,						\
	.open = __name ## _open,					\
	.read = seq_read,						\
	.llseek = seq_lseek,						\
	.release = single_release,					\
}

#endif /* _PERFKMOD_CONTROL_REFERENCED_SHOW_H */
