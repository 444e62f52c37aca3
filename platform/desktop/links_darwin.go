//go:build darwin && cgo

package desktop

/*
#cgo CFLAGS: -x objective-c -fobjc-arc
#cgo LDFLAGS: -framework Foundation -framework AppKit -framework CoreServices
#import <AppKit/AppKit.h>
#import <CoreServices/CoreServices.h>

// Defined in Go (links_export_darwin.go): a file with //export may
// only declare C in its preamble, so the Objective-C lives here.
extern void buildstationURLEvent(char *url);

// BSURLHandler receives kAEGetURL, the Apple Event macOS sends an app
// for a link of a scheme its Info.plist claims (CFBundleURLTypes). Neither
// Fyne nor GLFW handles it.
@interface BSURLHandler : NSObject
- (void)handleGetURL:(NSAppleEventDescriptor *)event withReplyEvent:(NSAppleEventDescriptor *)reply;
@end

@implementation BSURLHandler
- (void)handleGetURL:(NSAppleEventDescriptor *)event withReplyEvent:(NSAppleEventDescriptor *)reply {
	NSString *s = [[event paramDescriptorForKeyword:keyDirectObject] stringValue];
	if (s == nil) return;
	buildstationURLEvent((char *)[s UTF8String]);
	// LSUIElement: the app is not brought forward by itself.
	[NSApp activateIgnoringOtherApps:YES];
}
@end

static BSURLHandler *bsHandler;

static void bsSetHandler(void) {
	if (bsHandler != nil) return;
	bsHandler = [[BSURLHandler alloc] init];
	[[NSAppleEventManager sharedAppleEventManager] setEventHandler:bsHandler
		andSelector:@selector(handleGetURL:withReplyEvent:)
		forEventClass:kInternetEventClass andEventID:kAEGetURL];
}

// A link that starts the app from cold comes as a kAEGetURL event during
// the launch itself: Apple's guidance is to install the handler in
// applicationWillFinishLaunching:, before the launch's events are
// dispatched. GLFW owns the application delegate, so the handler is
// installed on that moment's notification, observed from the moment the
// program is loaded (a constructor runs before main, and before NSApp
// exists). Go is running by then: NSApp runs from Go's main. The Go side
// holds links that come before the tray is ready (urlEvents.pending).
__attribute__((constructor)) static void bsObserveLaunch(void) {
	[[NSNotificationCenter defaultCenter] addObserverForName:NSApplicationWillFinishLaunchingNotification
		object:nil queue:nil usingBlock:^(NSNotification *note) { bsSetHandler(); }];
}

// On the main thread, whichever goroutine asks: the tray process calls
// it from systray's ready callback, which runs on a goroutine of its own.
// A second install does nothing: the one at launch stays.
static void bsInstallURLHandler(void) {
	dispatch_async(dispatch_get_main_queue(), ^{ bsSetHandler(); });
}

// bsMacOSMajor is the running macOS's major version (14 for Sonoma).
static int bsMacOSMajor(void) {
	return (int)[[NSProcessInfo processInfo] operatingSystemVersion].majorVersion;
}

// bsActivate brings the dashboard process forward: an LSUIElement app is
// not brought forward by itself when it shows a window. cooperative:
// macOS 14's activate, which takes the activation the tray yielded
// (bsYield); before 14, activateIgnoringOtherApps.
static void bsActivate(int cooperative) {
	dispatch_async(dispatch_get_main_queue(), ^{
		if (cooperative) {
			if (@available(macOS 14.0, *)) {
				[NSApp activate];
				return;
			}
		}
		[NSApp activateIgnoringOtherApps:YES];
	});
}

// bsYield hands this (the tray's) activation to the process pid (the
// dashboard), so that its activate brings it forward on macOS 14 and
// later, where activation is cooperative.
static void bsYield(int pid) {
	dispatch_async(dispatch_get_main_queue(), ^{
		if (@available(macOS 14.0, *)) {
			NSRunningApplication *app = [NSRunningApplication runningApplicationWithProcessIdentifier:(pid_t)pid];
			if (app != nil) [NSApp yieldActivationToApplication:app];
		}
	});
}
*/
import "C"

// installURLHandler registers for kAEGetURL, should the launch's own
// registration (bsObserveLaunch, at applicationWillFinishLaunching) not
// have run: a process that was not launched as an app.
func installURLHandler() { C.bsInstallURLHandler() }

// Activate brings this (the dashboard) process forward as it shows what
// the tray asked for, the way this macOS wants (activation.go).
func Activate() { C.bsActivate(boolInt(activationFor(int(C.bsMacOSMajor())).cooperative)) }

// YieldTo hands the tray's activation to the dashboard process pid, on a
// macOS where activation is cooperative.
func YieldTo(pid int) {
	if activationFor(int(C.bsMacOSMajor())).yield {
		C.bsYield(C.int(pid))
	}
}

func boolInt(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// AllowForeground: macOS lets activateIgnoringOtherApps bring a window
// forward without a right handed on.
func AllowForeground() {}
