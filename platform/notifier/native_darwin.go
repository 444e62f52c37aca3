//go:build darwin && cgo

package notifier

/*
#cgo CFLAGS: -x objective-c -fobjc-arc
#cgo LDFLAGS: -framework Foundation -framework UserNotifications
#import <Foundation/Foundation.h>
#import <UserNotifications/UserNotifications.h>
#include <stdlib.h>
#include <string.h>

// Defined in Go (native_export_darwin.go): a file with //export may only
// declare C in its preamble, so the Objective-C lives here.
extern void buildstationNotifyClicked(char *link);
extern void buildstationNotifyActed(char *link, char *action);
extern void buildstationNotifyAuthorized(int granted, char *err);
extern void buildstationNotifyFailed(char *ident, char *err);

// The categories' names come from Go (categoryOpen, categoryAsk,
// categoryFinished in native.go); the actions' identifiers are what
// ParseAction reads, and ActionDiff and ActionMerge.
static NSString *const bsOpenAction = @"open";
static NSString *const bsAllowAction = @"allow";
static NSString *const bsDenyAction = @"deny";
static NSString *const bsDiffAction = @"diff";
static NSString *const bsMergeAction = @"merge";

static NSString *bsString(const char *s) {
	NSString *v = s ? [NSString stringWithUTF8String:s] : nil;
	return v ? v : @"";
}

@interface BSNotifyDelegate : NSObject <UNUserNotificationCenterDelegate>
@end

@implementation BSNotifyDelegate
// macOS shows nothing for the frontmost app unless its delegate asks.
- (void)userNotificationCenter:(UNUserNotificationCenter *)center
       willPresentNotification:(UNNotification *)notification
         withCompletionHandler:(void (^)(UNNotificationPresentationOptions))completionHandler {
	completionHandler(UNNotificationPresentationOptionBanner | UNNotificationPresentationOptionList | UNNotificationPresentationOptionSound);
}

// A click on the notice or on its Open button opens the session its link
// names; Allow once or Deny decides what that session asks, View diff and
// Merge land the work it finished (in Go).
- (void)userNotificationCenter:(UNUserNotificationCenter *)center
didReceiveNotificationResponse:(UNNotificationResponse *)response
         withCompletionHandler:(void (^)(void))completionHandler {
	NSString *action = response.actionIdentifier;
	id link = response.notification.request.content.userInfo[@"url"];
	if ([link isKindOfClass:[NSString class]]) {
		if ([action isEqualToString:UNNotificationDefaultActionIdentifier] || [action isEqualToString:bsOpenAction]) {
			buildstationNotifyClicked((char *)[(NSString *)link UTF8String]);
		} else if ([action isEqualToString:bsAllowAction] || [action isEqualToString:bsDenyAction] ||
		           [action isEqualToString:bsDiffAction] || [action isEqualToString:bsMergeAction]) {
			buildstationNotifyActed((char *)[(NSString *)link UTF8String], (char *)[action UTF8String]);
		}
	}
	completionHandler();
}
@end

// The center keeps its delegate weakly.
static BSNotifyDelegate *bsDelegate;

// bsBundleID is the main bundle's identifier (malloc'd), or NULL outside an
// app bundle, where UNUserNotificationCenter must not be touched.
static char *bsBundleID(void) {
	@autoreleasepool {
		NSString *s = [[NSBundle mainBundle] bundleIdentifier];
		if (s == nil || [s length] == 0) return NULL;
		return strdup([s UTF8String]);
	}
}

static void bsNotifyStart(const char *openCategory, const char *askCategory, const char *finishedCategory) {
	@autoreleasepool {
		UNUserNotificationCenter *center = [UNUserNotificationCenter currentNotificationCenter];
		bsDelegate = [[BSNotifyDelegate alloc] init];
		center.delegate = bsDelegate;
		UNNotificationAction *openAction = [UNNotificationAction actionWithIdentifier:bsOpenAction
			title:@"Open" options:UNNotificationActionOptionForeground];
		UNNotificationCategory *category = [UNNotificationCategory categoryWithIdentifier:bsString(openCategory)
			actions:@[openAction] intentIdentifiers:@[] options:UNNotificationCategoryOptionNone];
		// Allowing runs a command an agent chose: macOS asks for the
		// person's login first when the screen is locked.
		UNNotificationAction *allowAction = [UNNotificationAction actionWithIdentifier:bsAllowAction
			title:@"Allow once" options:UNNotificationActionOptionAuthenticationRequired];
		UNNotificationAction *denyAction = [UNNotificationAction actionWithIdentifier:bsDenyAction
			title:@"Deny" options:UNNotificationActionOptionDestructive];
		UNNotificationCategory *ask = [UNNotificationCategory categoryWithIdentifier:bsString(askCategory)
			actions:@[allowAction, denyAction] intentIdentifiers:@[] options:UNNotificationCategoryOptionNone];
		// View diff brings the diff window up; Merge changes the
		// project's branch: macOS asks for the login first when locked.
		UNNotificationAction *diffAction = [UNNotificationAction actionWithIdentifier:bsDiffAction
			title:@"View diff" options:UNNotificationActionOptionForeground];
		UNNotificationAction *mergeAction = [UNNotificationAction actionWithIdentifier:bsMergeAction
			title:@"Merge" options:UNNotificationActionOptionAuthenticationRequired];
		UNNotificationCategory *finished = [UNNotificationCategory categoryWithIdentifier:bsString(finishedCategory)
			actions:@[diffAction, mergeAction] intentIdentifiers:@[] options:UNNotificationCategoryOptionNone];
		[center setNotificationCategories:[NSSet setWithObjects:category, ask, finished, nil]];
		[center requestAuthorizationWithOptions:(UNAuthorizationOptionAlert | UNAuthorizationOptionSound)
			completionHandler:^(BOOL granted, NSError *error) {
				buildstationNotifyAuthorized(granted ? 1 : 0,
					error != nil ? (char *)[[error localizedDescription] UTF8String] : NULL);
			}];
	}
}

// bsNotifyPost shows one notice; a notice with the same identifier replaces it.
static void bsNotifyPost(const char *ident, const char *title, const char *body, const char *url, const char *category) {
	@autoreleasepool {
		UNMutableNotificationContent *content = [[UNMutableNotificationContent alloc] init];
		content.title = bsString(title);
		content.body = bsString(body);
		content.sound = [UNNotificationSound defaultSound];
		NSString *link = bsString(url);
		if ([link length] > 0) {
			content.userInfo = @{@"url": link};
			content.categoryIdentifier = bsString(category);
		}
		NSString *identifier = bsString(ident);
		UNNotificationRequest *request = [UNNotificationRequest requestWithIdentifier:identifier content:content trigger:nil];
		[[UNUserNotificationCenter currentNotificationCenter] addNotificationRequest:request
			withCompletionHandler:^(NSError *error) {
				if (error != nil) {
					buildstationNotifyFailed((char *)[identifier UTF8String], (char *)[[error localizedDescription] UTF8String]);
				}
			}];
	}
}

static void bsNotifyWithdraw(const char *ident) {
	@autoreleasepool {
		NSArray<NSString *> *ids = @[bsString(ident)];
		UNUserNotificationCenter *center = [UNUserNotificationCenter currentNotificationCenter];
		[center removeDeliveredNotificationsWithIdentifiers:ids];
		[center removePendingNotificationRequestsWithIdentifiers:ids];
	}
}
*/
import "C"

import "unsafe"

// nativeBuilt: this build can show native notifications.
const nativeBuilt = true

// native is the process's one delegate's link to Go.
var native nativeState

// bundleID is the main bundle's identifier, "" when the process does not
// run from an app bundle.
func bundleID() string {
	s := C.bsBundleID()
	if s == nil {
		return ""
	}
	defer C.free(unsafe.Pointer(s))
	return C.GoString(s)
}

// nativeStart sets up the notification center once per process: the
// delegate, the categories with their buttons (Open; Allow once and
// Deny; View diff and Merge), and the authorization request (alert and sound); later calls only
// change where clicks and presses go.
func nativeStart(o Options) {
	if native.start(o) {
		open, ask, finished := C.CString(categoryOpen), C.CString(categoryAsk), C.CString(categoryFinished)
		defer C.free(unsafe.Pointer(open))
		defer C.free(unsafe.Pointer(ask))
		defer C.free(unsafe.Pointer(finished))
		C.bsNotifyStart(open, ask, finished)
	}
}

// nativePost shows m (texts already made safe by newMessage) under its
// group, the identifier Withdraw removes, with its category's buttons.
func nativePost(m message) {
	ident, title, body, link := C.CString(m.Group), C.CString(m.Title), C.CString(m.Body), C.CString(m.URL)
	category := C.CString(nativeCategory(m))
	defer C.free(unsafe.Pointer(category))
	defer C.free(unsafe.Pointer(ident))
	defer C.free(unsafe.Pointer(title))
	defer C.free(unsafe.Pointer(body))
	defer C.free(unsafe.Pointer(link))
	C.bsNotifyPost(ident, title, body, link, category)
}

// nativeWithdraw removes the notice shown under group, shown or pending.
func nativeWithdraw(group string) {
	ident := C.CString(group)
	defer C.free(unsafe.Pointer(ident))
	C.bsNotifyWithdraw(ident)
}
