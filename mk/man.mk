# man-keys: the KEYS section of docs/lruscope.8 is generated from the keymap
# (ui/keymap.c): what is between its BEGIN KEYS and END KEYS markers becomes
# the output of 'lruscope keys --man'. The markers stay.
MAN_PAGE := docs/lruscope.8

.PHONY: man-keys

man-keys: $(BUILD)/lruscope
	$(call msg,GEN,$(MAN_PAGE) KEYS)
	$(Q)test -f $(MAN_PAGE) || { echo "man-keys: $(MAN_PAGE) is missing" >&2; exit 1; }
	$(Q)grep -q '^\.\\" BEGIN KEYS' $(MAN_PAGE) && grep -q '^\.\\" END KEYS' $(MAN_PAGE) || \
		{ echo "man-keys: $(MAN_PAGE) has no BEGIN KEYS / END KEYS markers" >&2; exit 1; }
	$(Q)$(BUILD)/lruscope keys --man > $(BUILD)/man-keys.roff
	$(Q)awk -v keys=$(BUILD)/man-keys.roff ' \
		/^\.\\" END KEYS/ { skip = 0 } \
		!skip { print } \
		/^\.\\" BEGIN KEYS/ { while ((getline l < keys) > 0) print l; skip = 1 }' \
		$(MAN_PAGE) > $(BUILD)/lruscope.8.new
	$(Q)mv $(BUILD)/lruscope.8.new $(MAN_PAGE)
