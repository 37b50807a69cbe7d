// SPDX-License-Identifier: MIT
/*
 * Description: a device whose driver has a clock read (info.json
 * driver.clock "driver") but whose clock samples are missing is
 * incomplete: the export places its times by the fit over task records
 * and says why, one reason for device 0.  With driver.clock "records" (a
 * driver without a clock read, as npustub) or no "driver" key (older
 * captures) the same fit is the method and no reason.  Found by the cold
 * review of the driver backends: the export had stopped flagging missing
 * samples for every driver.
 */
#include "check.h"
#include "export_model.h"
#include "test_export_fixture.h"

#define DUE_REASON \
	"device 0: no clock samples although its driver has a clock read (info.json driver.clock), so device times are placed by a fit over task records instead"

/* Rewrite host/info.json with no loss and @driver ("" for no key). */
static int write_info(const char *prof, const char *driver)
{
	char path[1024], text[512];

	snprintf(path, sizeof(path), "%s/host/info.json", prof);
	snprintf(text, sizeof(text),
		 "{\"pid\": 4242, \"pid_name\": \"ai_task\", \"hostname\": \"fixture\", "
		 "\"devices\": [0], \"record_version\": 1%s%s%s}\n",
		 driver[0] ? ", \"driver\": {\"backend\": \"x\", \"module\": \"x\", \"clock\": \"" : "",
		 driver, driver[0] ? "\"}" : "");
	return fx_write_file(path, text, strlen(text));
}

static size_t due_reasons(const char *prof)
{
	struct export_model m;
	size_t n = 0;

	CHECK_EQ(export_model_load(prof, &m), 0);
	for (size_t i = 0; i < m.n_reasons; i++)
		n += !strcmp(m.reasons[i], DUE_REASON);
	export_model_free(&m);
	return n;
}

int main(void)
{
	char root[256], prof[512];

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 0, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	CHECK_EQ(write_info(prof, "driver"), 0);
	CHECK_EQ(due_reasons(prof), 1);
	CHECK_EQ(write_info(prof, "records"), 0);
	CHECK_EQ(due_reasons(prof), 0);
	CHECK_EQ(write_info(prof, ""), 0);
	CHECK_EQ(due_reasons(prof), 0);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
