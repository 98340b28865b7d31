# man-keys, man-options: sections of docs/lruscope.8 generated from the tables
# they document. What is between a section's BEGIN and END markers becomes the
# output of its command: KEYS from the keymap (ui/keymap.c, 'lruscope keys
# --man'), OPTIONS from the commands' option tables (cli/, 'lruscope options
# --man'). The markers stay.
MAN_PAGE := docs/lruscope.8

.PHONY: man man-keys man-options

man: man-keys man-options

# man_section NAME, COMMAND: replace the text between NAME's markers with COMMAND's output
define man_section
	$(call msg,GEN,$(MAN_PAGE) $(1))
	$(Q)test -f $(MAN_PAGE) || { echo "man: $(MAN_PAGE) is missing" >&2; exit 1; }
	$(Q)grep -q '^\.\\" BEGIN $(1)' $(MAN_PAGE) && grep -q '^\.\\" END $(1)' $(MAN_PAGE) || \
		{ echo "man: $(MAN_PAGE) has no BEGIN $(1) / END $(1) markers" >&2; exit 1; }
	$(Q)$(2) > $(BUILD)/man-$(1).roff
	$(Q)awk -v body=$(BUILD)/man-$(1).roff ' \
		/^\.\\" END $(1)/ { skip = 0 } \
		!skip { print } \
		/^\.\\" BEGIN $(1)/ { while ((getline l < body) > 0) print l; skip = 1 }' \
		$(MAN_PAGE) > $(BUILD)/lruscope.8.new
	$(Q)mv $(BUILD)/lruscope.8.new $(MAN_PAGE)
endef

man-keys: $(BUILD)/lruscope
	$(call man_section,KEYS,$(BUILD)/lruscope keys --man)

man-options: $(BUILD)/lruscope
	$(call man_section,OPTIONS,$(BUILD)/lruscope options --man)
