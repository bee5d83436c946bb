# SPDX-License-Identifier: GPL-2.0-or-later
# qemu.sh: booting the test VM (sourced by tests/vm/run).

# qemu_run ACCEL KERNEL_DIR VM_DIR DISK TIMEOUT APPEND: one boot of the
# initramfs VM_DIR/initramfs.gz, console to VM_DIR/console.log.  The
# machine is VM_ARCH's: x86_64 (when unset), s390x or arm64.
qemu_run() {
	local accel=$1 qemu console drive

	case ${VM_ARCH:-x86_64} in
	x86_64) qemu=(qemu-system-x86_64) console=ttyS0
		drive=(-drive "file=$4,format=raw,if=virtio") ;;
	# The serial port is the SCLP console; virtio sits on the channel
	# subsystem.
	s390x) qemu=(qemu-system-s390x -M s390-ccw-virtio -cpu max)
		console=ttysclp0
		drive=(-drive "file=$4,format=raw,if=none,id=out"
			-device virtio-blk-ccw,drive=out) ;;
	arm64) qemu=(qemu-system-aarch64 -M virt -cpu cortex-a57)
		console=ttyAMA0
		drive=(-drive "file=$4,format=raw,if=none,id=out"
			-device virtio-blk-device,drive=out) ;;
	esac
	# Multi-threaded TCG locked a CPU up for good in function_graph's
	# code patching (1 run in 2): one thread runs both CPUs.
	[ "$accel" = tcg ] && accel=tcg,thread=single
	timeout "$5" "${qemu[@]}" -accel "$accel" -m 1024 -smp 2 \
		-nodefaults -display none -no-reboot \
		-kernel "$2/vmlinuz" -initrd "$3/initramfs.gz" \
		-append "console=$console panic=-1 quiet $6" \
		-serial "file:$3/console.log" \
		"${drive[@]}" </dev/null
}

# choose_accel KERNEL_DIR VM_DIR: kvm when /dev/kvm is usable, else tcg
# (software emulation).  Usable means a probe boot reaches init: a
# /dev/kvm can be there and still fail (as in some sandboxes).
choose_accel() {
	local disk=$2/probe.img

	# Another architecture's machine: software emulation only.
	[ "${VM_ARCH:-x86_64}" = x86_64 ] || { echo tcg; return; }
	case ${VM_ACCEL:-} in kvm | tcg) echo "$VM_ACCEL"; return ;; esac
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ] ||
		! grep -q -E -w 'vmx|svm' /proc/cpuinfo; then
		echo tcg
		return
	fi
	truncate -s 1M "$disk"
	if qemu_run kvm "$1" "$2" "$disk" 20 vmprobe >/dev/null 2>&1 &&
		grep -q '^vm: probe' "$2/console.log"; then
		echo kvm
	else
		echo tcg
	fi
	rm -f "$disk"
}

# boot ACCEL KERNEL_DIR VM_DIR RESULTS_DIR TIMEOUT: run the VM and unpack
# what it wrote onto its disk into RESULTS_DIR.
boot() {
	local disk=$3/out.img

	rm -f "$disk"
	truncate -s 256M "$disk"
	qemu_run "$1" "$2" "$3" "$disk" "$5" "" || return 1
	tar -xf "$disk" -C "$4" && [ -f "$4/tracers" ]
}

# crash_boot KERNEL_DIR OUT TIMEOUT APPEND: boot OUT/initramfs.gz on
# x86_64 with a state disk (vda, 1 MiB) and a results disk (vdb,
# OUT/results.img).  No -no-reboot: a guest that panics with panic=1
# resets inside the same qemu, its RAM kept (tests/vm/crash).
crash_boot() {
	local accel=${VM_ACCEL:-tcg}

	rm -f "$2/state.img" "$2/results.img"
	truncate -s 1M "$2/state.img"
	truncate -s 256M "$2/results.img"
	[ "$accel" = tcg ] && accel=tcg,thread=single
	timeout "$3" qemu-system-x86_64 -accel "$accel" -m 1024 -smp 2 \
		-nodefaults -display none \
		-kernel "$1/vmlinuz" -initrd "$2/initramfs.gz" \
		-append "console=ttyS0 panic=1 quiet $4" \
		-serial "file:$2/console.log" \
		-drive "file=$2/state.img,format=raw,if=virtio" \
		-drive "file=$2/results.img,format=raw,if=virtio" </dev/null
}
