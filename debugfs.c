// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs interface under /sys/kernel/debug/perfkmod/.
 */
#include <linux/debugfs.h>

#include "internal.h"

static struct dentry *perfkmod_dir;

/**
 * perfkmod_debugfs_init() - create /sys/kernel/debug/perfkmod/
 *
 * Like every debugfs user, perfkmod does not check what debugfs returns:
 * the module works without its files.
 *
 * Context: process context, may sleep; called once from module init.
 */
void perfkmod_debugfs_init(void)
{
	perfkmod_dir = debugfs_create_dir("perfkmod", NULL);
}

/**
 * perfkmod_debugfs_exit() - remove /sys/kernel/debug/perfkmod/ and its files
 *
 * Context: process context, may sleep; called once from module exit.
 */
void perfkmod_debugfs_exit(void)
{
	debugfs_remove(perfkmod_dir);
}
